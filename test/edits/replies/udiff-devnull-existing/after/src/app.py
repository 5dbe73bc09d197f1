import logging
from src.config import LOG_LEVEL

logging.basicConfig()
