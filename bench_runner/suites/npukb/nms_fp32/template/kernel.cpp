// nms_fp32: greedy non-maximum suppression per image: kept box indices in decreasing score
// order (-1 past the count) and the number kept.
#include "kernel_operator.h"
#include "nms_tiling.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void nms_custom(GM_ADDR boxes, GM_ADDR scores, GM_ADDR keep, GM_ADDR count,
                                                 GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(NmsTilingData, tilingData, tiling);
    // TODO: per image: repeatedly take the highest remaining score (ReduceMax with calIndex),
    // keep that box, compute its IoU with every box (vector ops on the coordinates split into
    // four vectors) and remove the boxes with IoU > threshold from the candidates.
    (void)tilingData;
}
