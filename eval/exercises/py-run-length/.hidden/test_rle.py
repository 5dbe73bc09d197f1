import unittest
from rle import decode, encode

class RunLengthTest(unittest.TestCase):
    def test_encode(self):
        self.assertEqual(encode("WWWWWWWWWWWWBWWWWWWWWWWWWBBBWWWWWWWWWWWWWWWWWWWWWWWWB"), "12WB12W3B24WB")
    def test_single_characters_have_no_count(self):
        self.assertEqual(encode("abc"), "abc")
    def test_spaces(self):
        self.assertEqual(encode("  hsqq qww  "), "2 hs2q q2w2 ")
    def test_decode(self):
        self.assertEqual(decode("12WB12W3B24WB"), "WWWWWWWWWWWWBWWWWWWWWWWWWBBBWWWWWWWWWWWWWWWWWWWWWWWWB")
    def test_round_trip(self):
        text = "zzz ZZ  zZ aaaaaaaaaaaaaaaaaaaaaaaaaaaaaab"
        self.assertEqual(decode(encode(text)), text)
    def test_empty(self):
        self.assertEqual(encode(""), "")
        self.assertEqual(decode(""), "")
