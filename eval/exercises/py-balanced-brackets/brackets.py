def is_balanced(text):
    raise NotImplementedError
