def add(a: float, b: float) -> float:
    return a + b


def sub(a, b):
    return a - b
