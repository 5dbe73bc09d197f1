import unittest
from spiral import spiral

class SpiralTest(unittest.TestCase):
    def test_empty(self):
        self.assertEqual(spiral(0), [])
    def test_one(self):
        self.assertEqual(spiral(1), [[1]])
    def test_three(self):
        self.assertEqual(spiral(3), [[1, 2, 3], [8, 9, 4], [7, 6, 5]])
    def test_four(self):
        self.assertEqual(spiral(4), [[1, 2, 3, 4], [12, 13, 14, 5], [11, 16, 15, 6], [10, 9, 8, 7]])
