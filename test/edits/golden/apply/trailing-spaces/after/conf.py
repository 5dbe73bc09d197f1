DEBUG = False   
PORT = 9000
HOST = "localhost"
