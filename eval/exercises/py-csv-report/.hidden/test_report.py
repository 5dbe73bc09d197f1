import unittest
from report import summarize

DATA = """category,item,amount
food,apple,1.50
tools,hammer,12.00
food,bread,2.25
# a comment line
tools,nails,3.10

books,novel,9.99
"""

class ReportTest(unittest.TestCase):
    def test_totals(self):
        self.assertEqual(summarize(DATA), {"books": 9.99, "food": 3.75, "tools": 15.1})
    def test_keys_sorted(self):
        self.assertEqual(list(summarize(DATA)), ["books", "food", "tools"])
    def test_header_only(self):
        self.assertEqual(summarize("category,item,amount\n"), {})
    def test_bad_amount(self):
        with self.assertRaises(ValueError) as caught:
            summarize("category,item,amount\nfood,pie,lots\n")
        self.assertIn("line 2", str(caught.exception))
