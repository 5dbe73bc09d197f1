def wrap(text, width):
    raise NotImplementedError
