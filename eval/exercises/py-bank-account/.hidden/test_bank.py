import unittest
from bank import BankAccount, InsufficientFunds

class BankTest(unittest.TestCase):
    def test_new_account_is_empty(self):
        self.assertEqual(BankAccount().balance, 0)
    def test_deposit_and_withdraw(self):
        a = BankAccount()
        a.deposit(100)
        a.withdraw(30)
        self.assertEqual(a.balance, 70)
    def test_overdraw(self):
        a = BankAccount()
        a.deposit(10)
        with self.assertRaises(InsufficientFunds):
            a.withdraw(11)
        self.assertEqual(a.balance, 10)
    def test_non_positive_amounts(self):
        a = BankAccount()
        for bad in (0, -5):
            with self.assertRaises(ValueError):
                a.deposit(bad)
            with self.assertRaises(ValueError):
                a.withdraw(bad)
    def test_history(self):
        a = BankAccount()
        a.deposit(5)
        a.withdraw(2)
        self.assertEqual(a.history(), [("deposit", 5), ("withdraw", 2)])
