import unittest
from isbn import is_valid

class IsbnTest(unittest.TestCase):
    def test_valid(self):
        self.assertTrue(is_valid("3-598-21508-8"))
        self.assertTrue(is_valid("3598215088"))
    def test_check_digit_x(self):
        self.assertTrue(is_valid("3-598-21507-X"))
    def test_wrong_check_digit(self):
        self.assertFalse(is_valid("3-598-21508-9"))
    def test_x_only_at_the_end(self):
        self.assertFalse(is_valid("3-598-2X507-9"))
    def test_lengths(self):
        self.assertFalse(is_valid("3-598-21507"))
        self.assertFalse(is_valid("3-598-21507-XX"))
        self.assertFalse(is_valid(""))
    def test_letters(self):
        self.assertFalse(is_valid("3-598-P1581-X"))
