// ascend_sim: TPipe, TQueBind / TQue / TBuf, flags and barriers.
//
// Queues follow the real state machine FREE -> OCCUPIED (AllocTensor) -> ENQUE (EnQue) ->
// DEQUE (DeQue) -> FREE (FreeTensor). Each hand-off is also a pipe flag in the cost model:
// EnQue sets a flag when the producer pipe finishes, DeQue makes the consumer pipe wait for it,
// FreeTensor sets the reverse flag and AllocTensor waits for it. The logic is out of line
// (runtime_impl.h); these templates only carry the element type.
#pragma once

#include "tensor.h"

namespace AscendC {

// An opaque handle to a queue's buffer (CANN's TBufHandle); never dereferenced by kernels.
using TBufHandle = uint8_t*;

template <TPosition src, TPosition dst, int32_t depth, auto mask = 0>
class TQueBind;
template <TPosition pos>
class TBuf;

namespace sim {

constexpr TPosition que_src_pos(TPosition pos) {
    switch (pos) {
        case TPosition::VECIN:
        case TPosition::A1:
        case TPosition::B1:
        case TPosition::C1:
            return TPosition::GM;
        case TPosition::A2:
            return TPosition::A1;
        case TPosition::B2:
            return TPosition::B1;
        case TPosition::C2:
            return TPosition::C1;
        default:
            return pos;
    }
}
constexpr TPosition que_dst_pos(TPosition pos) {
    switch (pos) {
        case TPosition::VECOUT:
        case TPosition::CO2:
            return TPosition::GM;
        case TPosition::CO1:
            return TPosition::CO2;
        default:
            return pos;
    }
}

}  // namespace sim

// ------------------------------------------------------------------------------------------
// TPipe
// ------------------------------------------------------------------------------------------
class TPipe {
public:
    __aicore__ inline TPipe(ASCEND_SIM_LOC) { sim::tpipe_created(this, loc); }
    __aicore__ inline ~TPipe() { sim::tpipe_destroyed(this); }
    TPipe(const TPipe&) = delete;
    TPipe& operator=(const TPipe&) = delete;

    template <class T>
    __aicore__ inline bool InitBuffer(T& que, uint8_t num, uint32_t len, ASCEND_SIM_LOC) {
        static_assert(!T::sim_is_tbuf, "TPipe::InitBuffer(T& que, uint8_t num, uint32_t len) not supports T as TBuf");
        return sim::init_queue(que.sim_state(), num, len, loc, false);
    }

    template <TPosition bufPos>
    __aicore__ inline bool InitBuffer(TBuf<bufPos>& buf, uint32_t len, ASCEND_SIM_LOC) {
        return sim::init_queue(buf.sim_state(), 1, len, loc, true);
    }

    // A TBufPool (compat.h) carved out of this pipe's Unified Buffer; the second form shares the
    // start and length of an existing pool (shareBuf) instead of taking new memory.
    template <class T>
    __aicore__ inline bool InitBufPool(T& bufPool, uint32_t len, ASCEND_SIM_LOC) {
        return bufPool.sim_init(nullptr, nullptr, len, loc);
    }
    template <class T, class U>
    __aicore__ inline bool InitBufPool(T& bufPool, uint32_t len, U& shareBuf, ASCEND_SIM_LOC) {
        return bufPool.sim_init(nullptr, &shareBuf.sim_pool(), len, loc);
    }

    template <HardEvent evt>
    __aicore__ inline TEventID AllocEventID(ASCEND_SIM_LOC) {
        return sim::event_alloc(evt, loc);
    }
    template <HardEvent evt>
    __aicore__ inline void ReleaseEventID(TEventID id, ASCEND_SIM_LOC) {
        sim::event_release(evt, id, loc);
    }
    template <HardEvent evt>
    __aicore__ inline TEventID FetchEventID(ASCEND_SIM_LOC) {
        return sim::event_fetch(evt, loc);
    }
    __aicore__ inline TEventID FetchEventID(HardEvent evt, ASCEND_SIM_LOC) { return sim::event_fetch(evt, loc); }

    // Releases every buffer (they become invalid) so InitBuffer can start again.
    __aicore__ inline void Reset(ASCEND_SIM_LOC) { sim::tpipe_reset(loc); }
    // Releases the pipe (queues, cursors) for a new round of InitBuffer. TBuf tensors obtained
    // before stay usable: on the NPU a buffer is only an address, and Catlass's Arch::Resource
    // destroys its pipe right after taking every memory as a TBuf tensor.
    __aicore__ inline void Destroy(ASCEND_SIM_LOC) { sim::tpipe_reset(loc, /*keep_tbufs=*/true); }
    __aicore__ inline void Init() {}
};

__aicore__ inline TPipe* GetTPipePtr() { return static_cast<TPipe*>(sim::tpipe_current()); }

// ------------------------------------------------------------------------------------------
// TQueBind / TQue
// ------------------------------------------------------------------------------------------
template <TPosition src, TPosition dst, int32_t depth, auto mask>
class TQueBind {
public:
    static constexpr bool sim_is_tbuf = false;

    __aicore__ inline TQueBind() {
        st_.src = src;
        st_.dst = dst;
        // Buffers live at the destination for loads into L1/L0 (GM->A1, A1->A2 ...), at the source
        // otherwise (VECOUT->GM, CO1->CO2, VECIN->VECOUT).
        st_.pos = (src == TPosition::GM || dst == TPosition::A2 || dst == TPosition::B2 || dst == TPosition::C2)
                      ? dst
                      : src;
        st_.depth = depth;
    }
    __aicore__ inline ~TQueBind() { sim::que_destroyed(st_); }
    TQueBind(const TQueBind&) = delete;
    TQueBind& operator=(const TQueBind&) = delete;

    template <typename T>
    __aicore__ inline LocalTensor<T> AllocTensor(ASCEND_SIM_LOC) {
        static_assert(depth != 0, "AllocTensor() returning a tensor needs a queue with depth != 0; use AllocTensor(tensor)");
        return make<T>(sim::que_alloc(st_, loc));
    }
    template <typename T>
    __aicore__ inline void AllocTensor(LocalTensor<T>& tensor, ASCEND_SIM_LOC) {
        tensor = make<T>(sim::que_alloc(st_, loc));
    }

    template <typename T>
    __aicore__ inline void FreeTensor(LocalTensor<T>& tensor, ASCEND_SIM_LOC) {
        sim::que_free(st_, sim::TensorAccess::ref(tensor), loc);
    }

    template <typename T>
    __aicore__ inline bool EnQue(const LocalTensor<T>& tensor, ASCEND_SIM_LOC) {
        sim::que_enque(st_, sim::TensorAccess::ref(tensor), loc);
        return true;
    }
    template <TPosition srcUserPos, TPosition dstUserPos, typename T>
    __aicore__ inline bool EnQue(const LocalTensor<T>& tensor, ASCEND_SIM_LOC) {
        sim::que_enque(st_, sim::TensorAccess::ref(tensor), loc);
        return true;
    }

    template <typename T>
    __aicore__ inline LocalTensor<T> DeQue(ASCEND_SIM_LOC) {
        return make<T>(sim::que_deque(st_, loc));
    }
    template <TPosition srcUserPos, TPosition dstUserPos, typename T>
    __aicore__ inline LocalTensor<T> DeQue(ASCEND_SIM_LOC) {
        return make<T>(sim::que_deque(st_, loc));
    }
    template <typename T>
    __aicore__ inline void DeQue(LocalTensor<T>& tensor, ASCEND_SIM_LOC) {
        tensor = make<T>(sim::que_deque(st_, loc));
    }
    // The untyped form: the buffer leaves the queue (its pipe wait included); the kernel goes on
    // using the LocalTensor it already holds (RmsNorm's bfloat16 gamma path). The handle is a
    // token, not the emulator's record: nothing of the runtime is handed to kernel code.
    __aicore__ inline TBufHandle DeQue(ASCEND_SIM_LOC) {
        sim::que_deque(st_, loc);
        return reinterpret_cast<TBufHandle>(static_cast<uintptr_t>(st_.fifo_count + 1));
    }

    __aicore__ inline bool VacantInQue() { return st_.fifo_count < (depth == 0 ? st_.num : depth); }
    __aicore__ inline bool HasTensorInQue() { return st_.fifo_count > 0; }
    __aicore__ inline int32_t GetTensorCountInQue() { return st_.fifo_count; }
    __aicore__ inline bool HasIdleBuffer() {
        for (int i = 0; i < st_.num; ++i) {
            if (st_.blocks[i]->state == sim::BufState::FREE) return true;
        }
        return false;
    }
    __aicore__ inline void FreeAllEvent() {}

    sim::QueueState& sim_state() { return st_; }

private:
    template <typename T>
    static LocalTensor<T> make(sim::BlockInfo* b) {
        return sim::TensorAccess::make<T>(b, 0, static_cast<uint32_t>(b->len / sizeof(T)));
    }
    sim::QueueState st_;
};

template <TPosition pos, int32_t depth, auto mask = 0>
class TQue : public TQueBind<sim::que_src_pos(pos), sim::que_dst_pos(pos), depth, mask> {
public:
    __aicore__ inline TQue() = default;
};

// ------------------------------------------------------------------------------------------
// TBuf: one buffer, no queue and no events.
// ------------------------------------------------------------------------------------------
template <TPosition pos = TPosition::LCM>
class TBuf {
public:
    static constexpr bool sim_is_tbuf = true;

    __aicore__ inline TBuf() {
        st_.src = pos;
        st_.dst = pos;
        st_.pos = pos;
        st_.depth = 0;
    }
    TBuf(const TBuf&) = delete;
    TBuf& operator=(const TBuf&) = delete;

    template <typename T>
    __aicore__ inline LocalTensor<T> Get(ASCEND_SIM_LOC) {
        sim::BlockInfo* b = sim::tbuf_block(st_, "TBuf::Get", loc);
        if (!b) return LocalTensor<T>();  // never initialised: a tensor without a buffer
        return sim::TensorAccess::make<T>(b, 0, static_cast<uint32_t>(b->len / sizeof(T)));
    }
    template <typename T>
    __aicore__ inline LocalTensor<T> Get(uint32_t len, ASCEND_SIM_LOC) {
        sim::BlockInfo* b = sim::tbuf_block(st_, "TBuf::Get", loc);
        if (!b) return LocalTensor<T>();
        if (static_cast<uint64_t>(len) * sizeof(T) > b->len) {
            sim::fail("LOCAL_OOB", "TBuf::Get", loc, "Get(%u) asks for %llu bytes but the TBuf holds %u bytes", len,
                      static_cast<unsigned long long>(len) * sizeof(T), b->len);
        }
        return sim::TensorAccess::make<T>(b, 0, len);
    }
    template <typename T>
    __aicore__ inline LocalTensor<T> GetWithOffset(uint32_t size, uint32_t bufOffset, ASCEND_SIM_LOC) {
        sim::BlockInfo* b = sim::tbuf_block(st_, "TBuf::GetWithOffset", loc);
        if (!b) return LocalTensor<T>();
        if (bufOffset % ONE_BLK_SIZE != 0) {
            sim::fail("ADDR_ALIGN", "TBuf::GetWithOffset", loc, "bufOffset %u is not a multiple of 32 bytes", bufOffset);
        }
        if (static_cast<uint64_t>(bufOffset) + static_cast<uint64_t>(size) * sizeof(T) > b->len) {
            sim::fail("LOCAL_OOB", "TBuf::GetWithOffset", loc,
                      "GetWithOffset(%u elements, offset %u bytes) ends past the %u-byte TBuf", size, bufOffset, b->len);
        }
        return sim::TensorAccess::make<T>(b, bufOffset, size);
    }

    // Some official samples call these on a TBuf; they simply hand out the buffer.
    template <typename T>
    __aicore__ inline LocalTensor<T> AllocTensor(ASCEND_SIM_LOC) {
        return Get<T>(loc);
    }
    template <typename T>
    __aicore__ inline void FreeTensor(LocalTensor<T>&, ASCEND_SIM_LOC) {
        (void)loc;
    }

    sim::QueueState& sim_state() { return st_; }

private:
    sim::QueueState st_;
};

// ------------------------------------------------------------------------------------------
// Synchronisation
// ------------------------------------------------------------------------------------------
template <HardEvent event>
__aicore__ inline void SetFlag(int32_t eventID, ASCEND_SIM_LOC) {
    sim::set_flag(event, eventID, "SetFlag", loc);
}
template <HardEvent event>
__aicore__ inline void WaitFlag(int32_t eventID, ASCEND_SIM_LOC) {
    sim::wait_flag(event, eventID, "WaitFlag", loc);
}

namespace sim {
constexpr HardEvent event_for_pipes(pipe_t s, pipe_t d) {
    // Every (src, dst) pair that exists as a HardEvent value; anything else maps to V_V (the
    // set_flag/wait_flag intrinsics refuse those, compat.h).
    return (s == PIPE_MTE2 && d == PIPE_V)     ? HardEvent::MTE2_V
           : (s == PIPE_V && d == PIPE_MTE2)   ? HardEvent::V_MTE2
           : (s == PIPE_MTE3 && d == PIPE_V)   ? HardEvent::MTE3_V
           : (s == PIPE_V && d == PIPE_MTE3)   ? HardEvent::V_MTE3
           : (s == PIPE_S && d == PIPE_V)      ? HardEvent::S_V
           : (s == PIPE_V && d == PIPE_S)      ? HardEvent::V_S
           : (s == PIPE_S && d == PIPE_MTE2)   ? HardEvent::S_MTE2
           : (s == PIPE_MTE2 && d == PIPE_S)   ? HardEvent::MTE2_S
           : (s == PIPE_S && d == PIPE_MTE3)   ? HardEvent::S_MTE3
           : (s == PIPE_MTE3 && d == PIPE_S)   ? HardEvent::MTE3_S
           : (s == PIPE_MTE2 && d == PIPE_MTE3) ? HardEvent::MTE2_MTE3
           : (s == PIPE_MTE3 && d == PIPE_MTE2) ? HardEvent::MTE3_MTE2
           : (s == PIPE_M && d == PIPE_V)      ? HardEvent::M_V
           : (s == PIPE_V && d == PIPE_M)      ? HardEvent::V_M
           : (s == PIPE_MTE2 && d == PIPE_MTE1) ? HardEvent::MTE2_MTE1
           : (s == PIPE_MTE1 && d == PIPE_M)   ? HardEvent::MTE1_M
           : (s == PIPE_M && d == PIPE_FIX)    ? HardEvent::M_FIX
           : (s == PIPE_MTE1 && d == PIPE_MTE2) ? HardEvent::MTE1_MTE2
           : (s == PIPE_M && d == PIPE_MTE1)   ? HardEvent::M_MTE1
           : (s == PIPE_MTE3 && d == PIPE_MTE1) ? HardEvent::MTE3_MTE1
           : (s == PIPE_MTE1 && d == PIPE_MTE3) ? HardEvent::MTE1_MTE3
           : (s == PIPE_MTE1 && d == PIPE_V)   ? HardEvent::MTE1_V
           : (s == PIPE_V && d == PIPE_MTE1)   ? HardEvent::V_MTE1
           : (s == PIPE_MTE2 && d == PIPE_M)   ? HardEvent::MTE2_M
           : (s == PIPE_M && d == PIPE_MTE2)   ? HardEvent::M_MTE2
           : (s == PIPE_FIX && d == PIPE_M)    ? HardEvent::FIX_M
           : (s == PIPE_MTE2 && d == PIPE_FIX) ? HardEvent::MTE2_FIX
           : (s == PIPE_FIX && d == PIPE_MTE2) ? HardEvent::FIX_MTE2
           : (s == PIPE_FIX && d == PIPE_S)    ? HardEvent::FIX_S
           : (s == PIPE_M && d == PIPE_S)      ? HardEvent::M_S
           : (s == PIPE_FIX && d == PIPE_MTE3) ? HardEvent::FIX_MTE3
           : (s == PIPE_MTE1 && d == PIPE_FIX) ? HardEvent::MTE1_FIX
           : (s == PIPE_FIX && d == PIPE_MTE1) ? HardEvent::FIX_MTE1
           : (s == PIPE_FIX && d == PIPE_FIX)  ? HardEvent::FIX_FIX
                                               : HardEvent::V_V;
}
}  // namespace sim

template <pipe_t src, pipe_t dst>
class TQueSync {
public:
    __aicore__ inline void SetFlag(TEventID id, ASCEND_SIM_LOC) {
        sim::set_flag(sim::event_for_pipes(src, dst), id, "TQueSync::SetFlag", loc);
    }
    __aicore__ inline void WaitFlag(TEventID id, ASCEND_SIM_LOC) {
        sim::wait_flag(sim::event_for_pipes(src, dst), id, "TQueSync::WaitFlag", loc);
    }
};

template <pipe_t pipe>
__aicore__ inline void PipeBarrier(ASCEND_SIM_LOC) {
    sim::pipe_barrier(pipe, loc);
}

template <bool isAIVOnly = true>
__aicore__ inline void SyncAll(ASCEND_SIM_LOC) {
    const ::AscendC::sim::ApiScope api_scope_;
    sim::sync_all(sim::enter("SyncAll", loc), loc, "SyncAll", !isAIVOnly);
}

template <bool isAIVOnly = true>
__aicore__ inline void SyncAll(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace,
                               const int32_t usedCores = 0, ASCEND_SIM_LOC) {
    (void)gmWorkspace;
    (void)ubWorkspace;
    (void)usedCores;
    const ::AscendC::sim::ApiScope api_scope_;
    sim::sync_all(sim::enter("SyncAll", loc), loc, "SyncAll");
}

// ------------------------------------------------------------------------------------------
// System variables
// ------------------------------------------------------------------------------------------
__aicore__ inline int64_t GetBlockIdx() {
    sim::CoreCtx* c = sim::tl_core;
    return c ? c->block_idx : 0;
}
__aicore__ inline int64_t GetBlockNum() {
    sim::CoreCtx* c = sim::tl_core;
    return c ? c->block_num : 1;
}
__aicore__ inline int64_t GetSubBlockIdx() {
    sim::CoreCtx* c = sim::tl_core;
    return c ? c->sub_block_idx : 0;
}
__aicore__ inline int64_t GetSubBlockNum() {
    sim::CoreCtx* c = sim::tl_core;
    return c ? c->sub_block_num : 1;
}
// Cores per block of this core's kind: 2 for the AIVs of a MIX (1:2) launch, else 1.
__aicore__ inline int64_t GetTaskRatio() {
    sim::CoreCtx* c = sim::tl_core;
    return c ? c->sub_block_num : 1;
}
__aicore__ inline int64_t GetSystemCycle() {
    sim::CoreCtx* c = sim::tl_core;
    return c ? static_cast<int64_t>(c->s_now) : 0;
}

}  // namespace AscendC
