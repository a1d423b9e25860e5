import ArgumentParser
print("termdata")
