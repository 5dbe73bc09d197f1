import unittest
import warnings
import geometry

class GeometryTest(unittest.TestCase):
    def test_new_names(self):
        self.assertAlmostEqual(geometry.circle_area(2), 12.566370614359172)
        self.assertEqual(geometry.rectangle_area(3, 4), 12)
    def test_describe_still_works(self):
        self.assertEqual(geometry.describe("circle", 1), "circle with area 3.14")
        self.assertEqual(geometry.describe("rectangle", 2, 5), "rectangle with area 10.00")
    def test_old_names_warn(self):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            self.assertEqual(geometry.calc2(2, 2), 4)
            self.assertAlmostEqual(geometry.calc(1), 3.141592653589793)
        self.assertEqual([w.category for w in caught], [DeprecationWarning, DeprecationWarning])
    def test_negative_sizes(self):
        with self.assertRaises(ValueError):
            geometry.circle_area(-1)
        with self.assertRaises(ValueError):
            geometry.rectangle_area(1, -1)
