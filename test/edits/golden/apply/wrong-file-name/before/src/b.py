def beta():
    pass
