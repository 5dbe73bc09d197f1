import pytest

from src.cart import Cart


def test_empty():
    assert Cart().total() == 0
