def count_words(text):
    """Return a dict mapping each lower-cased word in text to how often it occurs."""
    raise NotImplementedError
