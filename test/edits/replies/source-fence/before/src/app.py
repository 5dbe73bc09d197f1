import argparse


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("cmd")
    return parser.parse_args()
