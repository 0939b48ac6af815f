// ascend_sim: LocalTensor / GlobalTensor and the checks every API applies to its operands.
#pragma once

#include <cstdio>
#include <string>

#include "half.h"
#include "runtime.h"

namespace AscendC {

enum class DataFormat : uint8_t { ND = 0, NZ, NCHW, NC1HWC0, NHWC, NCDHW, NDC1HWC0, FRACTAL_Z_3D };

constexpr int32_t K_MAX_SHAPE_DIM = 8;

struct ShapeInfo {
    uint8_t shapeDim = 0;
    uint8_t originalShapeDim = 0;
    uint32_t shape[K_MAX_SHAPE_DIM] = {};
    uint32_t originalShape[K_MAX_SHAPE_DIM] = {};
    DataFormat dataFormat = DataFormat::ND;

    ShapeInfo() = default;
    ShapeInfo(uint8_t dim, const uint32_t s[], DataFormat fmt = DataFormat::ND)
        : shapeDim(dim), originalShapeDim(dim), dataFormat(fmt) {
        for (int i = 0; i < dim && i < K_MAX_SHAPE_DIM; ++i) shape[i] = originalShape[i] = s[i];
    }
    ShapeInfo(uint8_t dim, const uint32_t s[], uint8_t odim, const uint32_t os[], DataFormat fmt = DataFormat::ND)
        : shapeDim(dim), originalShapeDim(odim), dataFormat(fmt) {
        for (int i = 0; i < dim && i < K_MAX_SHAPE_DIM; ++i) shape[i] = s[i];
        for (int i = 0; i < odim && i < K_MAX_SHAPE_DIM; ++i) originalShape[i] = os[i];
    }
};

// PrimT<T>: the element type of a tensor (TensorTrait is not emulated, so it is T itself).
template <typename T>
using PrimT = T;

template <typename T>
class LocalTensor;
template <typename T>
class GlobalTensor;

namespace sim {

// Level-3 assignment (dst = a + b), defined in misc.h.
template <typename T, typename E>
void assign_l3(const LocalTensor<T>& dst, const E& e);

struct TensorAccess;  // grants the API internals access to LocalTensor's representation

}  // namespace sim

template <typename T>
class LocalTensor {
public:
    using PrimType = T;

    __aicore__ inline LocalTensor() = default;

    // Static-tensor form: a tensor placed at a fixed UB byte address.
    __aicore__ inline LocalTensor(TPosition pos, uint32_t addr, uint32_t tileSize, ASCEND_SIM_LOC) {
        const ::AscendC::sim::ApiScope api_scope_;
        sim::CoreCtx& c = sim::enter("LocalTensor", loc);
        if (addr % ONE_BLK_SIZE != 0) {
            sim::fail("ADDR_ALIGN", "LocalTensor", loc,
                      "static LocalTensor address %u is not 32-byte aligned", addr);
        }
        if (static_cast<uint64_t>(addr) + static_cast<uint64_t>(tileSize) * sizeof(T) > c.static_block.len) {
            sim::fail("LOCAL_OOB", "LocalTensor", loc,
                      "static LocalTensor [%u, +%llu bytes) exceeds the Unified Buffer (%u bytes)", addr,
                      static_cast<unsigned long long>(tileSize) * sizeof(T), c.static_block.len);
        }
        blk_ = &c.static_block;
        gen_ = c.static_block.gen;
        off_ = addr;
        size_ = tileSize;
        pos_ = pos;
    }

    // ---- element access (scalar unit) ----
    __aicore__ inline T GetValue(const uint32_t index, ASCEND_SIM_LOC) const {
        const ::AscendC::sim::ApiScope api_scope_;
        sim::CoreCtx& c = sim::enter("GetValue", loc);
        sim::LocalView v = check_element(index, "GetValue", loc, sim::Touch::ScalarRead);
        if (!v.shadow[static_cast<uint64_t>(index) * sizeof(T)]) {
            sim::warn("UNINIT_READ", "GetValue", loc,
                      "LocalTensor::GetValue(%u) reads a UB element that was never written since the buffer was "
                      "allocated (stale data)",
                      index);
        }
        sim::charge_scalar(c, c.soc->ub_scalar_cycles, blk_, false);
        T out;
        std::memcpy(&out, v.data + static_cast<uint64_t>(index) * sizeof(T), sizeof(T));
        return out;
    }

    template <typename T1>
    __aicore__ inline void SetValue(const uint32_t index, const T1 value, ASCEND_SIM_LOC) const {
        const ::AscendC::sim::ApiScope api_scope_;
        sim::CoreCtx& c = sim::enter("SetValue", loc);
        sim::LocalView v = check_element(index, "SetValue", loc);
        const T val = static_cast<T>(value);
        sim::charge_scalar(c, c.soc->ub_scalar_cycles, blk_, true);
        std::memcpy(v.data + static_cast<uint64_t>(index) * sizeof(T), &val, sizeof(T));
        std::memset(v.shadow + static_cast<uint64_t>(index) * sizeof(T), 1, sizeof(T));
    }

    // Element reference: both reads and writes go through it, so it counts as a write.
    __aicore__ inline T& operator()(const uint32_t offset) const {
        const ::AscendC::sim::ApiScope api_scope_;
        sim::CoreCtx& c = sim::enter("operator()", sim::tl_core ? sim::tl_core->last_loc : sim::SrcLoc("?", 0));
        sim::LocalView v = check_element(offset, "LocalTensor::operator()", c.last_loc);
        sim::charge_scalar(c, c.soc->ub_scalar_cycles, blk_, true);
        std::memset(v.shadow + static_cast<uint64_t>(offset) * sizeof(T), 1, sizeof(T));
        return *reinterpret_cast<T*>(v.data + static_cast<uint64_t>(offset) * sizeof(T));
    }

    // Sub-tensor starting `offset` elements later (a tensor, not an element).
    __aicore__ inline LocalTensor operator[](const uint32_t offset) const {
        LocalTensor t = *this;
        t.off_ = off_ + static_cast<uint32_t>(static_cast<uint64_t>(offset) * sizeof(T));
        t.size_ = offset <= size_ ? size_ - offset : 0;
        return t;
    }

    template <typename CAST_T>
    __aicore__ inline LocalTensor<CAST_T> ReinterpretCast() const {
        LocalTensor<CAST_T> t;
        t.blk_ = blk_;
        t.gen_ = gen_;
        t.off_ = off_;
        t.size_ = static_cast<uint32_t>(static_cast<uint64_t>(size_) * sizeof(T) / sizeof(CAST_T));
        t.pos_ = pos_;
        t.tag_ = tag_;
        return t;
    }

    // On the CPU twin GetPhyAddr returns a real pointer.
    __aicore__ inline T* GetPhyAddr() const { return GetPhyAddr(0); }
    __aicore__ inline T* GetPhyAddr(const uint32_t offset) const {
        if (!blk_ || !sim::tl_core) return nullptr;
        return reinterpret_cast<T*>(sim::tl_core->ub.data() + blk_->addr + off_) + offset;
    }

    __aicore__ inline uint32_t GetSize() const { return size_; }
    __aicore__ inline void SetSize(const uint32_t size) {
        sim::kernel_memory(this, sizeof *this, "LocalTensor::SetSize");
        size_ = size;
    }
    __aicore__ inline uint32_t GetLength() const { return static_cast<uint32_t>(size_ * sizeof(T)); }
    __aicore__ inline void SetBufferLen(uint32_t dataLen) {
        sim::kernel_memory(this, sizeof *this, "LocalTensor::SetBufferLen");
        size_ = static_cast<uint32_t>(dataLen / sizeof(T));
    }
    __aicore__ inline int32_t GetPosition() const { return static_cast<int32_t>(pos_); }
    __aicore__ inline void SetUserTag(const TTagType tag) {
        sim::kernel_memory(this, sizeof *this, "LocalTensor::SetUserTag");
        tag_ = tag;
    }
    __aicore__ inline TTagType GetUserTag() const { return tag_; }
    __aicore__ inline void SetShapeInfo(const ShapeInfo& s) {
        sim::kernel_memory(this, sizeof *this, "LocalTensor::SetShapeInfo");
        shape_ = s;
    }
    __aicore__ inline ShapeInfo GetShapeInfo() const { return shape_; }

    template <typename U>
    __aicore__ inline void SetAddrWithOffset(LocalTensor<U>& src, uint32_t offset) {
        sim::kernel_memory(this, sizeof *this, "LocalTensor::SetAddrWithOffset");
        blk_ = src.blk_;
        gen_ = src.gen_;
        off_ = src.off_ + static_cast<uint32_t>(offset * sizeof(U));
        pos_ = src.pos_;
    }

    // Level-3 API: `dst = src0 + src1;` computes GetSize() elements.
    template <typename E, typename = typename E::ascend_sim_l3>
    __aicore__ inline LocalTensor& operator=(const E& expr) {
        sim::assign_l3(*this, expr);
        return *this;
    }
    LocalTensor(const LocalTensor&) = default;
    LocalTensor& operator=(const LocalTensor&) = default;

    // CPU-twin debugging helpers.
    inline void Print() const { Print(size_); }
    inline void Print(uint32_t len) const {
        const T* p = GetPhyAddr();
        if (!p) return;
        for (uint32_t i = 0; i < len && i < size_; ++i) {
            std::printf("%g%s", static_cast<double>(sim::to_f<T>(p[i])), (i + 1) % 16 == 0 ? "\n" : " ");
        }
        std::printf("\n");
    }

private:
    template <typename U>
    friend class LocalTensor;
    friend struct sim::TensorAccess;

    sim::LocalView check_element(uint32_t index, const char* api, const sim::SrcLoc& loc,
                                 sim::Touch touch = sim::Touch::ScalarWrite) const;

    sim::BlockInfo* blk_ = nullptr;
    uint32_t gen_ = 0;
    uint32_t off_ = 0;   // bytes from the start of the buffer
    uint32_t size_ = 0;  // elements
    TPosition pos_ = TPosition::VECCALC;
    TTagType tag_ = 0;
    ShapeInfo shape_;
};

namespace sim {

struct TensorAccess {
    template <typename T>
    static LocalTensor<T> make(BlockInfo* b, uint32_t off, uint32_t size_elems) {
        LocalTensor<T> t;
        t.blk_ = b;
        t.gen_ = b->gen;
        t.off_ = off;
        t.size_ = size_elems;
        t.pos_ = b->pos;
        return t;
    }
    template <typename T>
    static BlockInfo* block(const LocalTensor<T>& t) { return t.blk_; }
    template <typename T>
    static uint32_t gen(const LocalTensor<T>& t) { return t.gen_; }
    template <typename T>
    static uint32_t offset(const LocalTensor<T>& t) { return t.off_; }
    template <typename T>
    static TPosition pos(const LocalTensor<T>& t) { return t.pos_; }
    template <typename T>
    static TensorRef ref(const LocalTensor<T>& t) {
        return TensorRef{t.blk_, t.gen_, t.off_, static_cast<uint64_t>(t.size_) * sizeof(T)};
    }
};

template <typename T>
inline TensorRef ref_of(const LocalTensor<T>& t) {
    return TensorAccess::ref(t);
}

// Validates a LocalTensor operand: allocated, not freed, aligned; returns its memory.
template <typename T>
inline LocalView view(const LocalTensor<T>& t, const char* api, const char* role, const SrcLoc& loc,
                      uint32_t align = ONE_BLK_SIZE) {
    return view_raw(TensorAccess::ref(t), api, role, loc, align);
}

}  // namespace sim

template <typename T>
inline sim::LocalView LocalTensor<T>::check_element(uint32_t index, const char* api, const sim::SrcLoc& loc,
                                                    sim::Touch touch) const {
    return sim::check_element_raw(sim::TensorAccess::ref(*this), index, sizeof(T), api, loc, touch);
}

// ------------------------------------------------------------------------------------------
// GlobalTensor
// ------------------------------------------------------------------------------------------
template <typename T>
class GlobalTensor {
public:
    using PrimType = T;

    __aicore__ inline GlobalTensor() = default;

    __aicore__ inline void SetGlobalBuffer(__gm__ T* buffer, uint64_t bufferSize) {
        addr_ = buffer;
        size_ = bufferSize + ASCEND_SIM_OWNED("GlobalTensor::SetGlobalBuffer");
    }
    __aicore__ inline void SetGlobalBuffer(__gm__ T* buffer) {
        addr_ = buffer;
        size_ = ASCEND_SIM_OWNED("GlobalTensor::SetGlobalBuffer");
    }

    __aicore__ inline const __gm__ T* GetPhyAddr() const { return addr_; }
    __aicore__ inline __gm__ T* GetPhyAddr(const uint64_t offset) const { return addr_ + offset; }

    __aicore__ inline T GetValue(const uint64_t offset, ASCEND_SIM_LOC) const {
        const ::AscendC::sim::ApiScope api_scope_;
        sim::CoreCtx& c = sim::enter("GetValue", loc);
        sim::check_gm(addr_ + offset, sizeof(T), false, "GlobalTensor::GetValue", loc);
        sim::charge_scalar(c, c.soc->gm_scalar_cycles);
        c.gm_read += sizeof(T);
        T out;
        std::memcpy(&out, addr_ + offset, sizeof(T));
        return out;
    }
    __aicore__ inline void SetValue(const uint64_t offset, const T value, ASCEND_SIM_LOC) {
        const ::AscendC::sim::ApiScope api_scope_;
        sim::CoreCtx& c = sim::enter("SetValue", loc);
        sim::check_gm(addr_ + offset, sizeof(T), true, "GlobalTensor::SetValue", loc);
        sim::charge_scalar(c, c.soc->gm_scalar_cycles);
        c.gm_write += sizeof(T);
        std::memcpy(addr_ + offset, &value, sizeof(T));
        sim::gm_mark(addr_ + offset, sizeof(T));
    }
    __aicore__ inline __gm__ T& operator()(const uint64_t offset) const {
        sim::CoreCtx* c = sim::tl_core;
        const sim::SrcLoc where = c ? c->last_loc : sim::SrcLoc("?", 0);
        sim::check_gm(addr_ + offset, sizeof(T), true, "GlobalTensor::operator()", where);
        return addr_[offset];
    }

    __aicore__ inline uint64_t GetSize() const { return size_; }

    __aicore__ inline GlobalTensor operator[](const uint64_t offset) const {
        GlobalTensor t = *this;
        t.addr_ = addr_ + offset;
        t.size_ = size_ > offset ? size_ - offset : 0;
        return t;
    }

    template <CacheRwMode rwMode = CacheRwMode::RW>
    __aicore__ inline void SetL2CacheHint(CacheMode mode) {
        (void)mode;
    }

    template <typename CAST_T>
    __aicore__ inline GlobalTensor<CAST_T> ReinterpretCast() const {
        GlobalTensor<CAST_T> t;
        t.SetGlobalBuffer(reinterpret_cast<__gm__ CAST_T*>(addr_), size_ * sizeof(T) / sizeof(CAST_T));
        return t;
    }

    __aicore__ inline void SetShapeInfo(const ShapeInfo& s) {
        sim::kernel_memory(this, sizeof *this, "GlobalTensor::SetShapeInfo");
        shape_ = s;
    }
    __aicore__ inline ShapeInfo GetShapeInfo() const { return shape_; }

private:
    __gm__ T* addr_ = nullptr;
    uint64_t size_ = 0;
    ShapeInfo shape_;
};

}  // namespace AscendC
