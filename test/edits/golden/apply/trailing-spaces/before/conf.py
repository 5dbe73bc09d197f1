DEBUG = False   
PORT = 8000  
HOST = "localhost"
