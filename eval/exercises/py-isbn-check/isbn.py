def is_valid(isbn):
    raise NotImplementedError
