// iou_boxes_fp32: y[i, j] = IoU(boxes1[i], boxes2[j]) for boxes given as (x1, y1, x2, y2).
#include "kernel_operator.h"
#include "iou_tiling.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void iou_custom(GM_ADDR boxes1, GM_ADDR boxes2, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(IouTilingData, tilingData, tiling);
    // TODO: load this core's rows of boxes1; for each column tile of boxes2 split its
    // coordinates into four vectors; per row of boxes1 compute intersection, union and their
    // ratio with vector instructions; copy output tiles out (DataCopyPad).
    (void)tilingData;
}
