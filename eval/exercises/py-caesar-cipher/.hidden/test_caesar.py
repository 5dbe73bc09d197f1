import unittest
from caesar import shift

class CaesarTest(unittest.TestCase):
    def test_shift(self):
        self.assertEqual(shift("abc xyz", 3), "def abc")
    def test_keeps_case_and_punctuation(self):
        self.assertEqual(shift("Hello, World!", 13), "Uryyb, Jbeyq!")
    def test_negative_and_large_keys(self):
        self.assertEqual(shift("def", -3), "abc")
        self.assertEqual(shift("abc", 29), "def")
    def test_round_trip(self):
        self.assertEqual(shift(shift("The quick brown fox", 7), -7), "The quick brown fox")
