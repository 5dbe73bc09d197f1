import unittest
from anagrams import group_anagrams

class AnagramTest(unittest.TestCase):
    def test_groups(self):
        self.assertEqual(
            group_anagrams(["listen", "google", "silent", "enlist", "banana", "gogole"]),
            [["banana"], ["enlist", "listen", "silent"], ["gogole", "google"]],
        )
    def test_case_insensitive(self):
        self.assertEqual(group_anagrams(["Tea", "eat", "ATE"]), [["ATE", "Tea", "eat"]])
    def test_duplicates_are_dropped(self):
        self.assertEqual(group_anagrams(["ab", "ba", "ab"]), [["ab", "ba"]])
    def test_empty(self):
        self.assertEqual(group_anagrams([]), [])
