from helpers import greet


def main():
    print(greet())
