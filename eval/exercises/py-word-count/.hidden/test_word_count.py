import unittest
from word_count import count_words

class WordCountTest(unittest.TestCase):
    def test_simple(self):
        self.assertEqual(count_words("one fish two fish"), {"one": 1, "fish": 2, "two": 1})
    def test_case_and_punctuation(self):
        self.assertEqual(count_words("Go, go! GO?"), {"go": 3})
    def test_apostrophes_inside_words(self):
        self.assertEqual(count_words("Don't stop. 'Quoted' words don't"), {"don't": 2, "stop": 1, "quoted": 1, "words": 1})
    def test_numbers_count_as_words(self):
        self.assertEqual(count_words("1 2 2 testing"), {"1": 1, "2": 2, "testing": 1})
    def test_empty(self):
        self.assertEqual(count_words("  \n\t "), {})
