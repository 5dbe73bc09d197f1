import unittest
from tally import tally

HEADER = "Team                           | MP |  W |  D |  L |  P"

class TallyTest(unittest.TestCase):
    def test_empty(self):
        self.assertEqual(tally([]), [HEADER])
    def test_table(self):
        results = [
            "Allegoric Alaskans;Blithering Badgers;win",
            "Devastating Donkeys;Courageous Californians;draw",
            "Devastating Donkeys;Allegoric Alaskans;win",
            "Courageous Californians;Blithering Badgers;loss",
            "Blithering Badgers;Devastating Donkeys;loss",
            "Allegoric Alaskans;Courageous Californians;win",
        ]
        self.assertEqual(tally(results), [
            HEADER,
            "Devastating Donkeys            |  3 |  2 |  1 |  0 |  7",
            "Allegoric Alaskans             |  3 |  2 |  0 |  1 |  6",
            "Blithering Badgers             |  3 |  1 |  0 |  2 |  3",
            "Courageous Californians        |  3 |  0 |  1 |  2 |  1",
        ])
    def test_ties_by_name(self):
        rows = tally(["B;A;draw"])
        self.assertEqual(rows[1][:1] + rows[2][:1], "AB")
