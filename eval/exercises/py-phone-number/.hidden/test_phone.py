import unittest
from phone import clean

class PhoneTest(unittest.TestCase):
    def test_formats(self):
        for raw in ["(223) 456-7890", "223.456.7890", "223 456   7890 ", "+1 (223) 456-7890", "1-223-456-7890"]:
            self.assertEqual(clean(raw), "2234567890", raw)
    def test_wrong_length(self):
        for raw in ["123456789", "22234567890", "321234567890"]:
            with self.assertRaises(ValueError, msg=raw):
                clean(raw)
    def test_letters_and_punctuation(self):
        for raw in ["523-abc-7890", "523-@:!-7890"]:
            with self.assertRaises(ValueError, msg=raw):
                clean(raw)
    def test_area_and_exchange_codes(self):
        for raw in ["(023) 456-7890", "(123) 456-7890", "(223) 056-7890", "(223) 156-7890"]:
            with self.assertRaises(ValueError, msg=raw):
                clean(raw)
