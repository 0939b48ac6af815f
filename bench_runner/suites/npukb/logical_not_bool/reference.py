"""Golden model for logical_not_bool."""



def golden(inputs, attrs):
    return {"y": inputs["x"] == 0}
