class InsufficientFunds(Exception):
    pass


class BankAccount:
    def __init__(self):
        pass
