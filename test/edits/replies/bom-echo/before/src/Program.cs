using System;

namespace Demo
{
    class Program
    {
        static void Main() => Console.WriteLine("hi");
    }
}
