def encode(text):
    raise NotImplementedError


def decode(text):
    raise NotImplementedError
