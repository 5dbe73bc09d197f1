import unittest
from search import find

class FindTest(unittest.TestCase):
    def test_found(self):
        items = [1, 3, 4, 6, 8, 9, 11]
        for i, v in enumerate(items):
            self.assertEqual(find(items, v), i)
    def test_missing(self):
        with self.assertRaises(ValueError):
            find([1, 3, 5], 4)
        with self.assertRaises(ValueError):
            find([], 1)
    def test_large_list_is_fast(self):
        items = list(range(0, 2_000_000, 2))
        for _ in range(2000):
            self.assertEqual(find(items, 1_999_998), 999_999)
