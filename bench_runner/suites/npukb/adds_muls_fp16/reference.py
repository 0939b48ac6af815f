"""Golden model for adds_muls_fp16: y = x * alpha + beta, computed in float64, rounded once."""


def golden(inputs, attrs):
    return {"y": inputs["x"] * float(attrs["alpha"]) + float(attrs["beta"])}
