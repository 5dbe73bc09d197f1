def clean(number):
    raise NotImplementedError
