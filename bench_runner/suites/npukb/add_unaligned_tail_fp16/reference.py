"""Golden model for add_unaligned_tail_fp16."""


def golden(inputs, attrs):
    return {"z": inputs["x"] + inputs["y"]}
