import unittest
from brackets import is_balanced

class BracketsTest(unittest.TestCase):
    def test_balanced(self):
        for s in ["", "()", "[{}]", "{[()()]}", "f(a[1], {b: 2})"]:
            self.assertTrue(is_balanced(s), s)
    def test_unbalanced(self):
        for s in ["(", ")(", "[(])", "{[}", "(()"]:
            self.assertFalse(is_balanced(s), s)
    def test_brackets_inside_strings_are_ignored(self):
        self.assertTrue(is_balanced('print("(")'))
        self.assertTrue(is_balanced("x = ']' + [1]"))
