def to_roman(number):
    """Convert an integer from 1 to 3999 to a Roman numeral string."""
    raise NotImplementedError


def from_roman(numeral):
    """Convert a Roman numeral string back to an integer."""
    raise NotImplementedError
