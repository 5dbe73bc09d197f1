using System;
class B { int x; }
