HOST        = "0.0.0.0"
PORT        = 8000
MAX_RETRIES = 5
TIMEOUT_S   = 30
