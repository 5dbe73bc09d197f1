import unittest
from sieve import primes

class SieveTest(unittest.TestCase):
    def test_small(self):
        self.assertEqual(primes(1), [])
        self.assertEqual(primes(2), [2])
        self.assertEqual(primes(30), [2, 3, 5, 7, 11, 13, 17, 19, 23, 29])
    def test_count(self):
        self.assertEqual(len(primes(1_000_000)), 78498)
