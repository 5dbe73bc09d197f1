def spiral(size):
    """Return a size x size matrix (list of rows) filled with 1..size*size in a clockwise spiral."""
    raise NotImplementedError
