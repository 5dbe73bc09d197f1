DEBUG = False
DATABASE_URL = "sqlite:///app.db"
