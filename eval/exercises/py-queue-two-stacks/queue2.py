class Queue:
    """A FIFO queue built from two Python lists used as stacks."""
