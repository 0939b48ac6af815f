"""Golden model for matmul_api_bias_fp16: a @ b + bias in float64."""


def golden(inputs, attrs):
    return {"c": inputs["a"] @ inputs["b"] + inputs["bias"][None, :]}
