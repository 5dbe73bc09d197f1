import unittest
from intervals import merge

class MergeTest(unittest.TestCase):
    def test_overlapping(self):
        self.assertEqual(merge([(1, 3), (2, 6), (8, 10), (15, 18)]), [(1, 6), (8, 10), (15, 18)])
    def test_touching(self):
        self.assertEqual(merge([(1, 4), (4, 5)]), [(1, 5)])
    def test_unsorted_and_nested(self):
        self.assertEqual(merge([(5, 7), (1, 10), (2, 3)]), [(1, 10)])
    def test_empty(self):
        self.assertEqual(merge([]), [])
    def test_input_untouched(self):
        data = [(3, 4), (1, 2)]
        merge(data)
        self.assertEqual(data, [(3, 4), (1, 2)])
