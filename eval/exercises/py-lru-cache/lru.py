class LRUCache:
    def __init__(self, capacity):
        pass
