"""Golden model for add_fp16_static: z = x + y, computed in float64."""


def golden(inputs, attrs):
    return {"z": inputs["x"] + inputs["y"]}
