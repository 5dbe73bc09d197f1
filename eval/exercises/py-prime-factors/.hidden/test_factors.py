import unittest
from factors import factors

class FactorsTest(unittest.TestCase):
    def test_small(self):
        self.assertEqual(factors(1), [])
        self.assertEqual(factors(2), [2])
        self.assertEqual(factors(12), [2, 2, 3])
    def test_prime_squared(self):
        self.assertEqual(factors(49), [7, 7])
    def test_large(self):
        self.assertEqual(factors(93819012551), [11, 9539, 894119])
    def test_invalid(self):
        with self.assertRaises(ValueError):
            factors(0)
