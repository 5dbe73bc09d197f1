from src.b import helper

print(helper())
