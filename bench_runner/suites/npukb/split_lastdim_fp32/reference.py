"""Golden model for split_lastdim_fp32: the first split_size columns and the rest."""



def golden(inputs, attrs):
    k = int(attrs["split_size"])
    x = inputs["x"]
    return {"y1": x[:, :k], "y2": x[:, k:]}
