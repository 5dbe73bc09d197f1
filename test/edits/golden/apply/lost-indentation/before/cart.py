class Cart:
    def __init__(self):
        self.items = []

    def total(self):
        return sum(i.price for i in self.items)
