import unittest
from lru import LRUCache

class LruTest(unittest.TestCase):
    def test_get_and_put(self):
        c = LRUCache(2)
        c.put("a", 1)
        c.put("b", 2)
        self.assertEqual(c.get("a"), 1)
        c.put("c", 3)
        self.assertIsNone(c.get("b"))
        self.assertEqual(c.get("a"), 1)
        self.assertEqual(c.get("c"), 3)
    def test_update_refreshes(self):
        c = LRUCache(2)
        c.put("a", 1)
        c.put("b", 2)
        c.put("a", 10)
        c.put("c", 3)
        self.assertEqual(c.get("a"), 10)
        self.assertIsNone(c.get("b"))
    def test_len(self):
        c = LRUCache(3)
        for i in range(10):
            c.put(i, i)
        self.assertEqual(len(c), 3)
    def test_bad_capacity(self):
        with self.assertRaises(ValueError):
            LRUCache(0)
