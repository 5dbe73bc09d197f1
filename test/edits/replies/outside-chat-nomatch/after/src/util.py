def slugify(text):
    return text.strip().lower().replace(" ", "-")
