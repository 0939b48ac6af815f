"""Golden model for sub_fp16: z = x - y in float64 (rounded to float16 by the evaluator)."""


def golden(inputs, attrs):
    return {"z": inputs["x"] - inputs["y"]}
