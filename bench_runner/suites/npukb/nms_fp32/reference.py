"""Golden model for nms_fp32: greedy NMS (torchvision.ops.nms semantics) per image.

Box coordinates are small integers, so intersections and unions are exact in float32 and the
IoU is a single correctly rounded float32 division; the reference computes exactly that and
compares it with the float32 threshold, so no comparison can flip between precisions."""

import numpy as np


def _nms(b, s, thr):
    b = b.astype(np.float32)
    area = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    w = np.maximum(np.minimum(b[:, None, 2], b[None, :, 2]) - np.maximum(b[:, None, 0], b[None, :, 0]), np.float32(0))
    h = np.maximum(np.minimum(b[:, None, 3], b[None, :, 3]) - np.maximum(b[:, None, 1], b[None, :, 1]), np.float32(0))
    inter = (w * h).astype(np.float32)
    union = ((area[:, None] + area[None, :]) - inter).astype(np.float32)
    suppress = (inter / union) > thr            # float32 IoU, strict comparison
    # Picking the highest remaining score each round visits boxes in descending score order
    # (ties: smaller index first); a box is kept iff no earlier kept box suppressed it.
    alive = np.ones(len(s), dtype=bool)
    keep = []
    for i in np.argsort(-s.astype(np.float64), kind="stable"):
        if alive[i]:
            keep.append(int(i))
            alive &= ~suppress[i]
    return keep


def golden(inputs, attrs):
    boxes, scores = inputs["boxes"], inputs["scores"]
    bsz, n = scores.shape
    thr = np.float32(attrs["iou_threshold"])
    keep = np.full((bsz, n), -1, dtype=np.int32)
    count = np.zeros(bsz, dtype=np.int32)
    for b in range(bsz):
        k = _nms(boxes[b], scores[b], thr)
        keep[b, :len(k)] = k
        count[b] = len(k)
    return {"keep": keep, "count": count}


def make_inputs(case, rng):
    # Integer corners in a field that grows with N (so about the same crowding at every N),
    # integer sides 1..20; distinct scores (a permutation of 0..N-1 plus jitter, scaled to [0, 1)).
    bsz, n = case.dims["B"], case.dims["N"]
    field = int(8 * np.sqrt(n)) + 20
    xy = rng.integers(0, field, (bsz, n, 2))
    wh = rng.integers(1, 21, (bsz, n, 2))
    boxes = np.concatenate([xy, xy + wh], axis=2).astype(np.float32)
    scores = np.stack([(rng.permutation(n) + rng.uniform(0.05, 0.95, n)) / n for _ in range(bsz)])
    return {"boxes": boxes, "scores": scores.astype(np.float32)}
