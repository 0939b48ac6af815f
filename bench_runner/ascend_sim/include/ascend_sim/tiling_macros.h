// ascend_sim: host-side tiling macros (BEGIN_TILING_DATA_DEF ... REGISTER_TILING_DATA_CLASS).
// A tiling struct is plain data with natural alignment, so the bytes the host writes with
// SaveToBuffer are exactly what the kernel reads back with GET_TILING_DATA.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace AscendC {
namespace sim {

template <int N>
struct TilingRank : TilingRank<N - 1> {};
template <>
struct TilingRank<0> {};

// The first REGISTER_TILING_DATA_CLASS of a translation unit gets the highest rank, so
// GET_TILING_DATA picks the op's main struct; REGISTER_TILING_DEFAULT outranks them all.
constexpr int rank_from_counter(int n) { return n < 60 ? 60 - n : 1; }

struct NoTilingRegistered {};

}  // namespace sim
}  // namespace AscendC

namespace optiling {}

// Fallback: no registration in scope.
::AscendC::sim::NoTilingRegistered ascend_sim_registered_tiling(::AscendC::sim::TilingRank<0>);

// ---- host side (op_host tiling headers) ----
#define BEGIN_TILING_DATA_DEF(class_name) \
    struct class_name {                   \
        using AscendSimSelf = class_name;

#define TILING_DATA_FIELD_DEF(data_type, field_name)                   \
    data_type field_name = data_type();                                \
    void set_##field_name(data_type value) { field_name = value; }     \
    data_type get_##field_name() const { return field_name; }

#define TILING_DATA_FIELD_DEF_ARR(arr_type, arr_size, field_name)                           \
    arr_type field_name[arr_size] = {};                                                     \
    void set_##field_name(const arr_type* value) {                                          \
        for (size_t i_ = 0; i_ < static_cast<size_t>(arr_size); ++i_) field_name[i_] = value[i_]; \
    }                                                                                       \
    arr_type* get_##field_name() { return field_name; } /* CANN's: a host fills the array through it */ \
    const arr_type* get_##field_name() const { return field_name; }

#define TILING_DATA_FIELD_DEF_STRUCT(struct_type, field_name)                 \
    struct_type field_name;                                                   \
    void set_##field_name(const struct_type& value) { field_name = value; }   \
    struct_type& get_##field_name() { return field_name; }

// Ends with its own `;`: CANN's op_host headers write both `END_TILING_DATA_DEF;` and a bare
// `END_TILING_DATA_DEF` (NPUKernelBench GeGluGradV2); the user's `;` is then an empty declaration.
#define END_TILING_DATA_DEF                                                                  \
    void SaveToBuffer(void* buf, size_t cap) const {                                         \
        std::memcpy(buf, static_cast<const void*>(this), sizeof(AscendSimSelf) < cap ? sizeof(AscendSimSelf) : cap); \
    }                                                                                        \
    size_t GetDataSize() const { return sizeof(AscendSimSelf); }                             \
    };

#define ASCEND_SIM_CAT2(a, b) a##b
#define ASCEND_SIM_CAT(a, b) ASCEND_SIM_CAT2(a, b)

#define REGISTER_TILING_DATA_CLASS(op_type, class_name) \
    class_name ascend_sim_registered_tiling(            \
        ::AscendC::sim::TilingRank<::AscendC::sim::rank_from_counter(__COUNTER__)>);

// New-style kernel-side registration of a plain struct.
#define REGISTER_TILING_DEFAULT(class_name) \
    class_name ascend_sim_registered_tiling(::AscendC::sim::TilingRank<62>);
