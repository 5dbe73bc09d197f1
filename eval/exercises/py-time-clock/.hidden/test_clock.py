import unittest
from clock import Clock

class ClockTest(unittest.TestCase):
    def test_str(self):
        self.assertEqual(str(Clock(8, 5)), "08:05")
    def test_rollover(self):
        self.assertEqual(str(Clock(25, 160)), "03:40")
        self.assertEqual(str(Clock(-1, -40)), "22:20")
    def test_add_and_subtract(self):
        self.assertEqual(str(Clock(23, 30).add(45)), "00:15")
        self.assertEqual(str(Clock(0, 10).subtract(20)), "23:50")
    def test_immutable(self):
        c = Clock(10, 0)
        c.add(5)
        self.assertEqual(str(c), "10:00")
    def test_equality(self):
        self.assertEqual(Clock(15, 37), Clock(-9, 37))
        self.assertNotEqual(Clock(1, 0), Clock(2, 0))
