"""Golden model for sgd_momentum_fp32: one torch.optim.SGD step (momentum buffer already
initialised, i.e. not the first step), in float64."""



def golden(inputs, attrs):
    lr, mom, damp, wd = (float(attrs[k]) for k in ("lr", "momentum", "dampening", "weight_decay"))
    p, g, buf = inputs["param"], inputs["grad"], inputs["momentum_buf"]
    d = g + wd * p
    buf = mom * buf + (1.0 - damp) * d
    d = d + mom * buf if attrs["nesterov"] else buf
    return {"param_out": p - lr * d, "momentum_buf_out": buf}
