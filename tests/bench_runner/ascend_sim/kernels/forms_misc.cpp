// SetDeqScale + Cast int32 -> half, Pad / UnPad (tiling from PadTilingFunc / UnPadTilingFunc),
// Broadcast / BroadCast, selected by an op code. Buffers: x (raw input bytes), z (raw output
// bytes, CAP * 4), p (int32 parameters). See test_vector_forms.py.
#include "kernel_operator.h"
#include "tiling/tiling_api.h"
using namespace AscendC;

constexpr uint32_t CAP = 4096;  // 4-byte words per buffer

extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR z, GM_ADDR params)
{
    GlobalTensor<int32_t> p;
    p.SetGlobalBuffer((__gm__ int32_t *)params, 32);
    const int32_t op = p.GetValue(0);
    const uint32_t a = p.GetValue(1), b = p.GetValue(2), c = p.GetValue(3);
    const uint16_t left = p.GetValue(4), right = p.GetValue(5);
    const int32_t padValue = p.GetValue(6);
    const uint32_t tmpBytes = p.GetValue(7);
    int32_t sbits = p.GetValue(8);
    float scale;
    __builtin_memcpy(&scale, &sbits, 4);

    GlobalTensor<int32_t> gx, gz;
    gx.SetGlobalBuffer((__gm__ int32_t *)x, CAP);
    gz.SetGlobalBuffer((__gm__ int32_t *)z, CAP);
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, bz, bt;
    pipe.InitBuffer(bx, CAP * 4);
    pipe.InitBuffer(bz, CAP * 4);
    pipe.InitBuffer(bt, tmpBytes ? tmpBytes : 32);
    LocalTensor<int32_t> lx = bx.Get<int32_t>();
    LocalTensor<int32_t> lz = bz.Get<int32_t>();
    LocalTensor<uint8_t> tmp = bt.Get<uint8_t>();
    DataCopy(lx, gx, CAP);
    DataCopy(lz, gz, CAP);
    PipeBarrier<PIPE_ALL>();
    LocalTensor<half> hx = lx.ReinterpretCast<half>(), hz = lz.ReinterpretCast<half>();

    if (op == 0 || op == 1) {
        if (op == 0) SetDeqScale(static_cast<half>(scale));
        Cast(hz, lx, RoundMode::CAST_NONE, a);
    } else if (op == 2 || op == 8) {
        PadTiling tiling;
        PadTilingFunc(ge::Shape({(int64_t)a, (int64_t)b}), ge::Shape({(int64_t)a, (int64_t)c}), tmpBytes, sizeof(half),
                      tiling);
        PadParams pp{left, right, padValue};
        if (tmpBytes) {
            Pad(hz, hx, pp, tmp, tiling);
        } else {
            Pad(hz, hx, pp, tiling);
        }
    } else if (op == 3) {
        UnPadTiling tiling;
        UnPadTilingFunc(ge::Shape({(int64_t)a, (int64_t)b}), tmpBytes, sizeof(half), tiling);
        UnPadParams up{0, right};
        UnPad(hz, hx, up, tmp, tiling);
    } else if (op == 4) {
        const uint32_t srcShape[2] = {a, 1}, dstShape[2] = {a, b};
        BroadCast<half, 2, 1>(hz, hx, dstShape, srcShape, tmp);
    } else if (op == 5) {
        const uint32_t srcShape[2] = {1, b}, dstShape[2] = {a, b};
        Broadcast<half, 2, 0>(hz, hx, dstShape, srcShape);
    } else if (op == 6) {
        const uint32_t srcShape[1] = {1}, dstShape[1] = {a};
        Broadcast<half, 1, 0>(hz, hx, dstShape, srcShape);
    } else if (op == 7) {  // misuse: tmp smaller than GetBroadCastMaxMinTmpSize's minimum
        LocalTensor<float> fx = lx.ReinterpretCast<float>(), fz = lz.ReinterpretCast<float>();
        const uint32_t srcShape[2] = {a, 1}, dstShape[2] = {a, b};
        BroadCast<float, 2, 1>(fz, fx, dstShape, srcShape, tmp);
    } else if (op == 20) {  // in place along axis 0: the first row stays, every row becomes it
        const uint32_t srcShape[2] = {1, b}, dstShape[2] = {a, b};
        Broadcast<half, 2, 0>(hx, hx, dstShape, srcShape);
        PipeBarrier<PIPE_V>();
        Adds(hz, hx, static_cast<half>(0), static_cast<int32_t>(a * b));
    } else if (op == 21) {  // misuse: in place along axis 1 would read what it already overwrote
        const uint32_t srcShape[2] = {a, 1}, dstShape[2] = {a, b};
        BroadCast<half, 2, 1>(hx, hx, dstShape, srcShape, tmp);
    } else if (op == 22) {  // FusedMulAdd: dst = src0 * dst + src1
        Duplicate(hz, static_cast<half>(2.0), 64);
        PipeBarrier<PIPE_V>();
        FusedMulAdd(hz, hx, hx[64], 64);
    } else if (op == 9) {
        float s[VDEQ_TENSOR_SIZE];
        int16_t o[VDEQ_TENSOR_SIZE];
        bool m[VDEQ_TENSOR_SIZE];
        for (int i = 0; i < VDEQ_TENSOR_SIZE; ++i) {
            s[i] = scale * (i + 1);
            o[i] = (int16_t)(i - 8);
            m[i] = (i % 2) == 1;
        }
        SetDeqScale(lz.ReinterpretCast<uint64_t>(), VdeqInfo(s, o, m));
    } else if (op >= 10 && op <= 19) {  // high-level math: x in the first half, a second operand in the second
        LocalTensor<float> fx = lx.ReinterpretCast<float>(), fz = lz.ReinterpretCast<float>();
        LocalTensor<half> hy = hx[CAP], hzz = hz;
        LocalTensor<float> fy = fx[CAP / 2];
        LocalTensor<int32_t> iy = lx[CAP / 2];
        if (op == 10) Sigmoid(hzz, hx, tmp, a);
        if (op == 11) Tanh(fz, fx, a);
        if (op == 12) Sign(hzz, hx);
        if (op == 13) Log(fz, fx, a);
        if (op == 14) Log2(hzz, hx, tmp, a);
        if (op == 15) Log10(fz, fx, a);
        if (op == 16) Power(fz, fx, fy, a);
        if (op == 17) Power<float, false>(fz, fx, scale, tmp, a);
        if (op == 18) Power(lz, (int32_t)b, iy, a);
        if (op == 19) Power(hzz, hx, hy, tmp, a);
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(gz, lz, CAP);
}
