class Clock:
    def __init__(self, hour, minute):
        pass
