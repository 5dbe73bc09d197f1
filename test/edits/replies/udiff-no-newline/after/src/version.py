__version__ = "1.3.0"
RELEASE = "2026-12-01"
