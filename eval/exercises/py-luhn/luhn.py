def valid(number):
    raise NotImplementedError
