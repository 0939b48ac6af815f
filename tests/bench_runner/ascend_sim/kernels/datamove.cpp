// DataCopy (count and DataCopyParams forms), DataCopyPad, UB->UB copies, TQueBind and the
// LocalTensor / GlobalTensor accessors. Buffers: x (float in), z (float out), p (int32 params).
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t CAP = 2048;

extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR z, GM_ADDR params)
{
    GlobalTensor<int32_t> p;
    p.SetGlobalBuffer((__gm__ int32_t *)params, 16);
    const int32_t op = p.GetValue(0);
    GlobalTensor<float> gx, gz;
    gx.SetGlobalBuffer((__gm__ float *)x, CAP);
    gz.SetGlobalBuffer((__gm__ float *)z, CAP);
    TPipe pipe;
    TBuf<TPosition::VECCALC> ba, bb;
    pipe.InitBuffer(ba, CAP * sizeof(float));
    pipe.InitBuffer(bb, CAP * sizeof(float));
    LocalTensor<float> a = ba.Get<float>();
    LocalTensor<float> b = bb.Get<float>();
    switch (op) {
        case 0: {  // strided in: 4 bursts of 2 blocks, skipping 1 block in GM, 3 blocks gap in UB
            Duplicate(a, -1.0f, CAP);
            DataCopyParams in(4, 2, 1, 3);
            DataCopy(a, gx, in);
            DataCopy(gz, a, CAP);
            break;
        }
        case 1: {  // strided out: gather 3 bursts of 1 block from UB (gap 2) into GM (gap 1)
            DataCopy(a, gx, CAP);
            DataCopyParams out;
            out.blockCount = 3;
            out.blockLen = 1;
            out.srcStride = 2;
            out.dstGap = 1;
            DataCopy(gz, a, out);
            break;
        }
        case 2: {  // DataCopyPad in: 3 rows of 5 floats, GM stride 7 floats, pad 1 left / 2 right with 9
            Duplicate(a, -1.0f, CAP);
            DataCopyExtParams ext(3, 5 * sizeof(float), 2 * sizeof(float), 0, 0);
            DataCopyPadExtParams<float> pad(true, 1, 2, 9.0f);
            DataCopyPad(a, gx, ext, pad);
            DataCopy(gz, a, CAP);
            break;
        }
        case 3: {  // DataCopyPad out: 3 rows of 5 floats from 32-byte padded UB rows, GM gap 3 floats
            DataCopy(a, gx, CAP);
            DataCopyExtParams ext(3, 5 * sizeof(float), 0, 3 * sizeof(float), 0);
            DataCopyPad(gz, a, ext);
            break;
        }
        case 4: {  // UB -> UB copies, count and strided
            DataCopy(a, gx, CAP);
            Duplicate(b, 0.0f, CAP);
            DataCopy(b, a[64], 256);
            DataCopyParams pp(2, 1, 1, 0);
            DataCopy(b[512], a, pp);
            DataCopy(gz, b, CAP);
            break;
        }
        case 5: {  // scalar accessors
            DataCopy(a, gx, CAP);
            LocalTensor<float> sub = a[8];
            float s = sub.GetValue(0) + a.GetValue(1);
            b.SetValue(0, s);
            b.SetValue(1, (float)sub.GetSize());
            b.SetValue(2, (float)a.GetSize());
            b.SetValue(3, (float)a.ReinterpretCast<half>().GetSize());
            b.SetValue(4, (float)a.GetLength());
            b(5) = a(7) * 2.0f;
            b.SetValue(6, gx.GetValue(10));
            b.SetValue(7, (float)gx[100].GetSize());
            gz.SetValue(CAP - 1, 42.0f);
            LocalTensor<uint32_t> bits = a.ReinterpretCast<uint32_t>();
            b.SetValue(8, (float)(bits.GetValue(2) >> 31));
            DataCopy(gz, b, 16);
            break;
        }
        case 6: {  // copy-through queue bound VECIN -> VECOUT
            TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> q;
            pipe.InitBuffer(q, 2, 256 * sizeof(float));
            for (int i = 0; i < 8; ++i) {
                LocalTensor<float> t = q.AllocTensor<float>();
                DataCopy(t, gx[i * 256], 256);
                q.EnQue(t);
                LocalTensor<float> u = q.DeQue<float>();
                DataCopy(gz[i * 256], u, 256);
                q.FreeTensor(u);
            }
            break;
        }
        case 7: {  // queue with depth 2: two EnQue before the DeQues, in-place DeQue form
            TQue<TPosition::VECIN, 2> q;
            pipe.InitBuffer(q, 2, 128 * sizeof(float));
            LocalTensor<float> t0 = q.AllocTensor<float>();
            LocalTensor<float> t1 = q.AllocTensor<float>();
            DataCopy(t0, gx, 128);
            DataCopy(t1, gx[128], 128);
            q.EnQue(t0);
            q.EnQue(t1);
            LocalTensor<float> u0, u1;
            q.DeQue(u0);
            q.DeQue(u1);
            Add(b, u0, u1, 128);
            q.FreeTensor(u0);
            q.FreeTensor(u1);
            DataCopy(gz, b, 128);
            break;
        }
        default: break;
    }
}
