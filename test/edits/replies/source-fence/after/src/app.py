import argparse


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("cmd")
    parser.add_argument("--verbose", action="store_true")
    return parser.parse_args()
