"""Golden model for mul_fp32: z = x * y in float64."""


def golden(inputs, attrs):
    return {"z": inputs["x"] * inputs["y"]}
