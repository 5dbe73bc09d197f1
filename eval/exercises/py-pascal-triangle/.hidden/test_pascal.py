import unittest
from pascal import rows

class PascalTest(unittest.TestCase):
    def test_zero(self):
        self.assertEqual(rows(0), [])
    def test_five(self):
        self.assertEqual(rows(5), [[1], [1, 1], [1, 2, 1], [1, 3, 3, 1], [1, 4, 6, 4, 1]])
    def test_row_sums(self):
        for i, row in enumerate(rows(20)):
            self.assertEqual(sum(row), 2 ** i)
    def test_negative(self):
        with self.assertRaises(ValueError):
            rows(-1)
