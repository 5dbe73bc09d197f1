def shift(text, key):
    raise NotImplementedError
