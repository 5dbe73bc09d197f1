from src.util import slugify


def title(text: str) -> str:
    return slugify(text)
