"""Golden model for reduce_min_fp32_lastdim, in float64."""



def golden(inputs, attrs):
    x = inputs["x"]
    return {"y": x.min(axis=-1)}
