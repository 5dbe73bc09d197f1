def beta():
    return 2
