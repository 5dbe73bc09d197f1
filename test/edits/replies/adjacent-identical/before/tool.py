import os
import os
import sys


def cwd():
    return os.getcwd()
