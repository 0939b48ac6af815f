"""Golden model for matmul_fp16: float64 product of the half inputs."""



def golden(inputs, attrs):
    return {"c": inputs["a"] @ inputs["b"]}
