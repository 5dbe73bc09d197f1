def primes(limit):
    raise NotImplementedError
