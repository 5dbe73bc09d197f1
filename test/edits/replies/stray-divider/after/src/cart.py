class Cart:
    def __init__(self):
        self.items = []

    def add(self, item):
        if item.price is None:
            raise ValueError("item has no price")
        self.items.append(item)

    def total(self):
        return sum(i.price for i in self.items)
