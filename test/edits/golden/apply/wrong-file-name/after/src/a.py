def alpha():
    pass
