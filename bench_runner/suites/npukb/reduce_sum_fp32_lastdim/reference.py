"""Golden model for reduce_sum_fp32_lastdim, in float64."""



def golden(inputs, attrs):
    x = inputs["x"]
    keepdim = bool(attrs.get("keepdim", True))
    return {"y": x.sum(axis=-1, keepdims=keepdim)}
