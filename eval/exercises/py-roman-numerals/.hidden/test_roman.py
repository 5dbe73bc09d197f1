import unittest
from roman import from_roman, to_roman

class RomanTest(unittest.TestCase):
    def test_to_roman(self):
        cases = {1: "I", 4: "IV", 9: "IX", 14: "XIV", 40: "XL", 90: "XC", 400: "CD", 1994: "MCMXCIV", 3999: "MMMCMXCIX"}
        for number, numeral in cases.items():
            self.assertEqual(to_roman(number), numeral)
    def test_round_trip(self):
        for number in range(1, 4000, 37):
            self.assertEqual(from_roman(to_roman(number)), number)
    def test_from_roman(self):
        self.assertEqual(from_roman("MMXXIV"), 2024)
        self.assertEqual(from_roman("XLII"), 42)
    def test_out_of_range(self):
        with self.assertRaises(ValueError):
            to_roman(0)
        with self.assertRaises(ValueError):
            to_roman(4000)
    def test_invalid_numeral(self):
        with self.assertRaises(ValueError):
            from_roman("ABC")
