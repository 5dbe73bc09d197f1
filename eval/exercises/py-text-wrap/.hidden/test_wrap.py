import unittest
from wrap import wrap

class WrapTest(unittest.TestCase):
    def test_greedy(self):
        self.assertEqual(wrap("the quick brown fox jumps over the lazy dog", 10),
                         ["the quick", "brown fox", "jumps over", "the lazy", "dog"])
    def test_collapses_whitespace(self):
        self.assertEqual(wrap("  a   b\n c  ", 80), ["a b c"])
    def test_long_words_are_split(self):
        self.assertEqual(wrap("abcdefghij xy", 4), ["abcd", "efgh", "ij", "xy"])
    def test_empty(self):
        self.assertEqual(wrap("   ", 5), [])
    def test_bad_width(self):
        with self.assertRaises(ValueError):
            wrap("x", 0)
