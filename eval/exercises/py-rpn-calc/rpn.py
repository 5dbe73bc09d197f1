def evaluate(expression):
    raise NotImplementedError
