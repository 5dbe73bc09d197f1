import unittest
from flatten import flatten

class FlattenTest(unittest.TestCase):
    def test_nested(self):
        self.assertEqual(flatten([1, [2, [3, [4]]], 5]), [1, 2, 3, 4, 5])
    def test_none_is_dropped(self):
        self.assertEqual(flatten([None, [1, None, [None, 2]]]), [1, 2])
    def test_tuples_count_as_lists(self):
        self.assertEqual(flatten([(1, 2), [3, (4,)]]), [1, 2, 3, 4])
    def test_strings_are_not_split(self):
        self.assertEqual(flatten(["ab", ["cd"]]), ["ab", "cd"])
    def test_deep(self):
        deep = [1]
        for _ in range(5000):
            deep = [deep]
        self.assertEqual(flatten(deep), [1])
