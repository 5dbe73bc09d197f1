import unittest
from luhn import valid

class LuhnTest(unittest.TestCase):
    def test_valid_numbers(self):
        self.assertTrue(valid("4539 3195 0343 6467"))
        self.assertTrue(valid("059"))
        self.assertTrue(valid("0 0"))
    def test_invalid_numbers(self):
        self.assertFalse(valid("8273 1232 7352 0569"))
        self.assertFalse(valid("1"))
        self.assertFalse(valid("0"))
    def test_non_digits(self):
        self.assertFalse(valid("055-444-285"))
        self.assertFalse(valid("055a 444 285"))
