print("start")
print("ready")
