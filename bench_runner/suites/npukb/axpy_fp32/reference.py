"""Golden model for axpy_fp32 (float64)."""


def golden(inputs, attrs):
    return {"y_out": attrs["alpha"] * inputs["x"] + inputs["y"]}
