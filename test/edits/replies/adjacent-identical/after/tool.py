import os
import sys


def cwd():
    return os.path.abspath(os.getcwd())
