"""Golden model for neg_fp32: y = -x."""


def golden(inputs, attrs):
    return {"y": -inputs["x"]}
