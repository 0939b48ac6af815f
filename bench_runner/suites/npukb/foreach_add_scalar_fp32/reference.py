"""Golden model for foreach_add_scalar_fp32: every tensor plus the scalar."""


def golden(inputs, attrs):
    s = float(attrs["scalar"])
    return {"a_out": inputs["a"] + s, "b_out": inputs["b"] + s, "c_out": inputs["c"] + s}
