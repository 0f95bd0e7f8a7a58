print("cognate")
