"""Golden model for add_bf16: z = x + y in float64 (rounded to bfloat16 by the evaluator)."""


def golden(inputs, attrs):
    return {"z": inputs["x"] + inputs["y"]}
