import math


def calc(r):
    return math.pi * r * r


def calc2(w, h):
    return w * h


def describe(shape, *sizes):
    if shape == "circle":
        return f"circle with area {calc(*sizes):.2f}"
    return f"rectangle with area {calc2(*sizes):.2f}"
