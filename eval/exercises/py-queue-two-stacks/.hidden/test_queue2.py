import unittest
from queue2 import Queue

class QueueTest(unittest.TestCase):
    def test_fifo(self):
        q = Queue()
        for i in range(5):
            q.push(i)
        self.assertEqual([q.pop() for _ in range(5)], [0, 1, 2, 3, 4])
    def test_interleaved(self):
        q = Queue()
        q.push("a"); q.push("b")
        self.assertEqual(q.pop(), "a")
        q.push("c")
        self.assertEqual(q.peek(), "b")
        self.assertEqual(len(q), 2)
        self.assertEqual(q.pop(), "b")
        self.assertEqual(q.pop(), "c")
    def test_empty(self):
        q = Queue()
        self.assertEqual(len(q), 0)
        with self.assertRaises(IndexError):
            q.pop()
        with self.assertRaises(IndexError):
            q.peek()
