"""Golden model for addcmul_fp16: torch.addcmul in float64 (rounded to half by the evaluator)."""


def golden(inputs, attrs):
    return {"out": inputs["x"] + attrs["value"] * inputs["t1"] * inputs["t2"]}
