// ascend_sim: tiling structs of the high-level vector APIs (SoftMaxTiling, LayerNormTiling; field
// names as in CANN's adv_api tiling headers) and the shape type the host-side helpers take. One
// type serves host and kernel, as for TCubeTiling.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <vector>

#include "tiling_macros.h"

#include "ge_shape.h"

BEGIN_TILING_DATA_DEF(SoftMaxTiling)
TILING_DATA_FIELD_DEF(uint32_t, srcM)
TILING_DATA_FIELD_DEF(uint32_t, srcK)
TILING_DATA_FIELD_DEF(uint32_t, srcSize)
TILING_DATA_FIELD_DEF(uint32_t, outMaxM)
TILING_DATA_FIELD_DEF(uint32_t, outMaxK)
TILING_DATA_FIELD_DEF(uint32_t, outMaxSize)
TILING_DATA_FIELD_DEF(uint32_t, splitM)
TILING_DATA_FIELD_DEF(uint32_t, splitK)
TILING_DATA_FIELD_DEF(uint32_t, splitSize)
TILING_DATA_FIELD_DEF(uint32_t, reduceM)
TILING_DATA_FIELD_DEF(uint32_t, reduceK)
TILING_DATA_FIELD_DEF(uint32_t, reduceSize)
TILING_DATA_FIELD_DEF(uint32_t, rangeM)
TILING_DATA_FIELD_DEF(uint32_t, tailM)
TILING_DATA_FIELD_DEF(uint32_t, tailSplitSize)
TILING_DATA_FIELD_DEF(uint32_t, tailReduceSize)
END_TILING_DATA_DEF;

BEGIN_TILING_DATA_DEF(LayerNormTiling)
TILING_DATA_FIELD_DEF(uint32_t, bLength)
TILING_DATA_FIELD_DEF(uint32_t, sLength)
TILING_DATA_FIELD_DEF(uint32_t, hLength)
TILING_DATA_FIELD_DEF(uint32_t, originalHLength)
TILING_DATA_FIELD_DEF(uint32_t, inputXSize)
TILING_DATA_FIELD_DEF(uint32_t, meanVarSize)
TILING_DATA_FIELD_DEF(uint32_t, numberOfTmpBuf)
TILING_DATA_FIELD_DEF(uint32_t, meanTmpTensorPos)
TILING_DATA_FIELD_DEF(uint32_t, meanTmpTensorSize)
TILING_DATA_FIELD_DEF(uint32_t, varianceTmpTensorPos)
TILING_DATA_FIELD_DEF(uint32_t, varianceTmpTensorSize)
TILING_DATA_FIELD_DEF(uint32_t, tmpBufSize)
TILING_DATA_FIELD_DEF(uint32_t, oneTmpSize)
TILING_DATA_FIELD_DEF(uint32_t, firstTmpStartPos)
TILING_DATA_FIELD_DEF(uint32_t, secondTmpStartPos)
TILING_DATA_FIELD_DEF(uint32_t, thirdTmpStartPos)
TILING_DATA_FIELD_DEF(uint32_t, loopRound)
TILING_DATA_FIELD_DEF(uint32_t, inputRoundSize)
TILING_DATA_FIELD_DEF(uint32_t, inputTailSize)
TILING_DATA_FIELD_DEF(uint32_t, inputTailPos)
TILING_DATA_FIELD_DEF(uint32_t, meanVarRoundSize)
TILING_DATA_FIELD_DEF(uint32_t, meanVarTailSize)
TILING_DATA_FIELD_DEF(uint32_t, meanVarTailPos)
TILING_DATA_FIELD_DEF(uint32_t, bshCurLength)
TILING_DATA_FIELD_DEF(uint32_t, bsCurLength)
TILING_DATA_FIELD_DEF(float, lastDimValueBack)
END_TILING_DATA_DEF;

BEGIN_TILING_DATA_DEF(TopkTiling)
TILING_DATA_FIELD_DEF(int32_t, tmpLocalSize)
TILING_DATA_FIELD_DEF(int32_t, allDataSize)
TILING_DATA_FIELD_DEF(int32_t, innerDataSize)
TILING_DATA_FIELD_DEF(uint32_t, sortRepeat)
TILING_DATA_FIELD_DEF(int32_t, mrgSortRepeat)
TILING_DATA_FIELD_DEF(int32_t, kAlignFourBytes)
TILING_DATA_FIELD_DEF(int32_t, kAlignTwoBytes)
TILING_DATA_FIELD_DEF(int32_t, maskOffset)
TILING_DATA_FIELD_DEF(int32_t, maskVreducev2FourBytes)
TILING_DATA_FIELD_DEF(int32_t, maskVreducev2TwoBytes)
TILING_DATA_FIELD_DEF(int32_t, mrgSortSrc1offset)
TILING_DATA_FIELD_DEF(int32_t, mrgSortSrc2offset)
TILING_DATA_FIELD_DEF(int32_t, mrgSortSrc3offset)
TILING_DATA_FIELD_DEF(int32_t, mrgSortTwoQueueSrc1Offset)
TILING_DATA_FIELD_DEF(int32_t, mrgFourQueueTailPara1)
TILING_DATA_FIELD_DEF(int32_t, mrgFourQueueTailPara2)
TILING_DATA_FIELD_DEF(int32_t, srcIndexOffset)
TILING_DATA_FIELD_DEF(uint32_t, copyUbToUbBlockCount)
TILING_DATA_FIELD_DEF(int32_t, topkMrgSrc1MaskSizeOffset)
TILING_DATA_FIELD_DEF(int32_t, topkNSmallSrcIndexOffset)
TILING_DATA_FIELD_DEF(uint32_t, vreduceValMask0)
TILING_DATA_FIELD_DEF(uint32_t, vreduceValMask1)
TILING_DATA_FIELD_DEF(uint32_t, vreduceIdxMask0)
TILING_DATA_FIELD_DEF(uint32_t, vreduceIdxMask1)
TILING_DATA_FIELD_DEF(uint16_t, vreducehalfValMask0)
TILING_DATA_FIELD_DEF(uint16_t, vreducehalfValMask1)
TILING_DATA_FIELD_DEF(uint16_t, vreducehalfValMask2)
TILING_DATA_FIELD_DEF(uint16_t, vreducehalfValMask3)
TILING_DATA_FIELD_DEF(uint16_t, vreducehalfValMask4)
TILING_DATA_FIELD_DEF(uint16_t, vreducehalfValMask5)
TILING_DATA_FIELD_DEF(uint16_t, vreducehalfValMask6)
TILING_DATA_FIELD_DEF(uint16_t, vreducehalfValMask7)
END_TILING_DATA_DEF;

// Pad / UnPad tiling (field lists of asc-devkit include/adv_api/pad/pad_tilingdata.h). The
// emulated kernels read srcHeight, srcWidth and srcOriWidth; the rest is filled for the record.
BEGIN_TILING_DATA_DEF(UnPadTiling)
TILING_DATA_FIELD_DEF(uint32_t, srcHeight)
TILING_DATA_FIELD_DEF(uint32_t, srcWidth)
TILING_DATA_FIELD_DEF(uint32_t, tmpBuffer1BlockNum)
TILING_DATA_FIELD_DEF(uint32_t, tmpBuffer1RowNum)
TILING_DATA_FIELD_DEF(uint32_t, tmpBuffer2Offset)
TILING_DATA_FIELD_DEF(uint32_t, widthTiling)
TILING_DATA_FIELD_DEF(uint32_t, widthFractal)
TILING_DATA_FIELD_DEF(uint32_t, widthFractalTail)
END_TILING_DATA_DEF;

BEGIN_TILING_DATA_DEF(PadTiling)
TILING_DATA_FIELD_DEF(uint32_t, srcHeight)
TILING_DATA_FIELD_DEF(uint32_t, srcWidth)
TILING_DATA_FIELD_DEF(uint32_t, srcOriWidth)
TILING_DATA_FIELD_DEF(uint32_t, widthWithoutLastBlock)
TILING_DATA_FIELD_DEF(uint32_t, blocksPerRow)
TILING_DATA_FIELD_DEF(uint32_t, heightTiling)
TILING_DATA_FIELD_DEF(uint32_t, heightFractal)
TILING_DATA_FIELD_DEF(uint32_t, heightFractalTail)
TILING_DATA_FIELD_DEF(uint32_t, mainLoopOffset)
TILING_DATA_FIELD_DEF(uint32_t, tailBlockOffset)
TILING_DATA_FIELD_DEF(uint32_t, tmpBuffer1BlockNum)
TILING_DATA_FIELD_DEF(uint32_t, tmpBuffer1RowNum)
TILING_DATA_FIELD_DEF(uint32_t, tmpBuffer2Offset)
TILING_DATA_FIELD_DEF(uint32_t, widthTiling)
TILING_DATA_FIELD_DEF(uint32_t, widthFractal)
TILING_DATA_FIELD_DEF(uint32_t, widthFractalTail)
TILING_DATA_FIELD_DEF(uint32_t, widthFractalTailAlingned)
TILING_DATA_FIELD_DEF(uint32_t, brcbTiling)
TILING_DATA_FIELD_DEF(uint32_t, brcbFractal)
TILING_DATA_FIELD_DEF(uint32_t, brcbFractalTail)
TILING_DATA_FIELD_DEF(uint32_t, maxRepeatTimes)
TILING_DATA_FIELD_DEF(uint32_t, brcbTilingRepeatTimes)
TILING_DATA_FIELD_DEF(uint32_t, brcbTilingRepeatTimesTail)
TILING_DATA_FIELD_DEF(uint32_t, brcbFractalTailRepeatTimes)
TILING_DATA_FIELD_DEF(uint32_t, brcbFractalTailRepeatTimesTail)
TILING_DATA_FIELD_DEF(uint32_t, reserved)
END_TILING_DATA_DEF;

namespace optiling {
using ::LayerNormTiling;
using ::PadTiling;
using ::SoftMaxTiling;
using ::TopkTiling;
using ::UnPadTiling;
}  // namespace optiling
namespace AscendC {
using ::LayerNormTiling;
using ::PadTiling;
using ::SoftMaxTiling;
using ::TopkTiling;
using ::UnPadTiling;

enum class TopKMode { TOPK_NORMAL, TOPK_NSMALL };

// Temporary-buffer sizes of the emulated high-level APIs (ascend_sim's own figures: one float
// row of work space per row of input plus a 32-byte reduce slot; CANN's exact numbers are not
// public). Shared by the host helpers and the kernel-side checks.
namespace sim {
inline uint32_t softmax_min_tmp(uint32_t k, uint32_t type_size) {
    (void)type_size;
    return (k * 4 + 31) / 32 * 32 + 64;
}
inline uint32_t softmax_max_tmp(uint32_t m, uint32_t k, uint32_t type_size) {
    return m * softmax_min_tmp(k, type_size);
}
inline uint32_t layernorm_min_tmp(uint32_t h, uint32_t type_size) {
    (void)type_size;
    return (h * 4 + 31) / 32 * 32 * 2 + 64;
}
// TopK: the row's values and indices twice (sort and merge space), 32-element aligned.
inline uint32_t topk_min_tmp(uint32_t inner, uint32_t type_size) {
    return ((inner + 31) / 32 * 32) * (type_size + 4) * 2;
}
inline uint32_t layernorm_max_tmp(uint32_t bs, uint32_t h, uint32_t type_size) {
    return bs * layernorm_min_tmp(h, type_size);
}
// Pad / UnPad: one 32-byte aligned row of work space; Broadcast [m, 1] -> [m, k]: one 32-byte
// block per source element (the brcb step), other forms none.
inline uint32_t pad_min_tmp(uint32_t width, uint32_t type_size) {
    return (width * type_size + 31) / 32 * 32;
}
inline uint32_t unpad_min_tmp(uint32_t width, uint32_t type_size) { return pad_min_tmp(width, type_size); }
inline uint32_t broadcast_min_tmp(int dim, int axis, const uint32_t* src_shape, uint32_t type_size) {
    (void)type_size;
    return (dim == 2 && axis == 1) ? src_shape[0] * 32 : 0;
}
}  // namespace sim

// ---- host side: temporary sizes and tiling of Pad / UnPad / Broadcast (shapes as ge::Shape,
// [height, width]; CANN's newer headers spell the type AscendC::TensorShape) ----
inline void GetPadMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                uint32_t& minValue) {
    const uint32_t h = static_cast<uint32_t>(srcShape.GetDim(0));
    const uint32_t w = static_cast<uint32_t>(srcShape.GetDim(srcShape.GetDimNum() > 1 ? 1 : 0));
    minValue = sim::pad_min_tmp(w, typeSize);
    maxValue = minValue * (h ? h : 1);
}
inline void PadTilingFunc(const ge::Shape srcShape, const ge::Shape oriSrcShape, const uint32_t stackBufferSize,
                          const uint32_t typeSize, PadTiling& tiling) {
    const uint32_t h = static_cast<uint32_t>(srcShape.GetDim(0));
    const uint32_t w = static_cast<uint32_t>(srcShape.GetDim(1));
    const uint32_t ow = static_cast<uint32_t>(oriSrcShape.GetDimNum() > 1 ? oriSrcShape.GetDim(1) : w);
    const uint32_t epb = 32 / (typeSize ? typeSize : 1);
    tiling.set_srcHeight(h);
    tiling.set_srcWidth(w);
    tiling.set_srcOriWidth(ow);
    tiling.set_blocksPerRow((w + epb - 1) / epb);
    tiling.set_widthWithoutLastBlock(w / epb * epb);
    const uint32_t row = sim::pad_min_tmp(w, typeSize);
    const uint32_t rows = row ? stackBufferSize / row : 0;
    tiling.set_heightTiling(rows < h ? rows : h);
    tiling.set_heightFractal(rows ? h / rows : 0);
    tiling.set_heightFractalTail(rows ? h % rows : h);
    tiling.set_tmpBuffer1RowNum(rows);
    tiling.set_maxRepeatTimes(255);
}
template <typename Platform>
inline void GetUnPadMaxMinTmpSize(const Platform& ascendcPlatform, const ge::Shape& srcShape, const uint32_t typeSize,
                                  uint32_t& maxValue, uint32_t& minValue) {
    (void)ascendcPlatform;
    GetPadMaxMinTmpSize(srcShape, typeSize, maxValue, minValue);
}
inline void UnPadTilingFunc(const ge::Shape srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                            UnPadTiling& tiling) {
    const uint32_t h = static_cast<uint32_t>(srcShape.GetDim(0));
    const uint32_t w = static_cast<uint32_t>(srcShape.GetDim(1));
    tiling.set_srcHeight(h);
    tiling.set_srcWidth(w);
    const uint32_t row = sim::unpad_min_tmp(w, typeSize);
    tiling.set_tmpBuffer1RowNum(row ? stackBufferSize / row : 0);
    tiling.set_widthTiling(w);
}
template <typename Platform>
inline void GetBroadCastMaxMinTmpSize(const Platform& ascendcPlatform, const ge::Shape& srcShape,
                                      const ge::Shape& dstShape, uint32_t typeSize, const bool isReuseSource,
                                      uint32_t& maxValue, uint32_t& minValue) {
    (void)ascendcPlatform;
    (void)isReuseSource;
    const int dim = static_cast<int>(srcShape.GetDimNum());
    uint32_t src[2] = {0, 0};
    int axis = 0;
    for (int i = 0; i < dim && i < 2; ++i) {
        src[i] = static_cast<uint32_t>(srcShape.GetDim(i));
        if (srcShape.GetDim(i) == 1 && dstShape.GetDim(i) != 1) axis = i;
    }
    minValue = sim::broadcast_min_tmp(dim, axis, src, typeSize);
    maxValue = minValue;
}
}  // namespace AscendC
