import unittest
from rpn import evaluate

class RpnTest(unittest.TestCase):
    def test_basic(self):
        self.assertEqual(evaluate("3 4 +"), 7)
        self.assertEqual(evaluate("5 1 2 + 4 * + 3 -"), 14)
    def test_division_is_float(self):
        self.assertEqual(evaluate("7 2 /"), 3.5)
    def test_negative_numbers(self):
        self.assertEqual(evaluate("-3 4 *"), -12)
    def test_errors(self):
        for bad in ["", "1 +", "1 2", "1 0 /", "2 3 ^"]:
            with self.assertRaises(ValueError, msg=bad):
                evaluate(bad)
