import unittest
from stats import mean, median, mode

class StatsTest(unittest.TestCase):
    def test_mean(self):
        self.assertEqual(mean([1, 2, 3, 4]), 2.5)
    def test_median_odd(self):
        self.assertEqual(median([3, 1, 2]), 2)
    def test_median_even(self):
        self.assertEqual(median([4, 1, 3, 2]), 2.5)
    def test_empty_raises(self):
        for f in (mean, median, mode):
            with self.assertRaises(ValueError):
                f([])
    def test_mode_ties_pick_smallest(self):
        self.assertEqual(mode([3, 3, 1, 1, 2]), 1)
