// acl/acl.h — the AscendCL runtime calls a CPU-debug or direct-launch host program makes,
// on the CPU (ascend_sim subset). Names, signatures, enum values and error codes follow CANN's
// acl/acl_base.h and acl/acl_rt.h (AscendCL API reference; hicann/runtime docs).
//
// Device memory is the emulator's global memory: aclrtMalloc is GmAlloc, so pointers it returns
// are valid `<<<>>>` / ICPU_RUN_KF kernel arguments and out-of-bounds kernel accesses to them
// are GM_OOB findings. Host memory (aclrtMallocHost) is ordinary heap memory. aclrtMemcpy checks
// what the real runtime checks (count <= destMax, non-null pointers) and that the device side of
// a HOST_TO_DEVICE / DEVICE_TO_HOST / DEVICE_TO_DEVICE copy lies inside one aclrtMalloc'd
// buffer, so a host program that would fail on the NPU fails here too, with ACL_ERROR_INVALID_PARAM.
// Devices, contexts, streams and events are bookkeeping only (one device, launches run
// synchronously); an event's elapsed time is 0 ms — the modelled time is in ASCEND_SIM_REPORT.
//
// Host code only: after kernel_operator.h (device code) the memory calls are poisoned
// (ascend_sim/device_code.h), as bisheng refuses host runtime calls in __aicore__ code; the
// types and constants stay available for a kernel file's launch wrapper.
#pragma once

#include "../ascend_sim/std_headers.h"
#include "../ascend_sim/noinstr_begin.h"
#include "../ascend_sim/base.h"
#include "../ascend_sim/half.h"
#include "../ascend_sim/host_api.h"
#if !defined(ASCEND_SIM_PREBUILT_RUNTIME)
#include "../ascend_sim/runtime.h"
#endif

#ifndef ACL_FUNC_VISIBILITY
#define ACL_FUNC_VISIBILITY
#endif

typedef int aclError;
typedef uint16_t aclFloat16;
typedef void* aclrtStream;
typedef void* aclrtEvent;
typedef void* aclrtContext;

// acl_base.h error codes (the subset this emulation returns or programs test for).
static const aclError ACL_SUCCESS = 0;
static const aclError ACL_ERROR_NONE = 0;
static const aclError ACL_ERROR_INVALID_PARAM = 100000;
static const aclError ACL_ERROR_UNINITIALIZE = 100001;
static const aclError ACL_ERROR_REPEAT_INITIALIZE = 100002;
static const aclError ACL_ERROR_BAD_ALLOC = 200000;
static const aclError ACL_ERROR_RT_FEATURE_NOT_SUPPORT = 207000;

typedef enum aclrtRunMode { ACL_DEVICE = 0, ACL_HOST = 1 } aclrtRunMode;

typedef enum aclrtMemcpyKind {
    ACL_MEMCPY_HOST_TO_HOST,
    ACL_MEMCPY_HOST_TO_DEVICE,
    ACL_MEMCPY_DEVICE_TO_HOST,
    ACL_MEMCPY_DEVICE_TO_DEVICE,
    ACL_MEMCPY_DEFAULT,
} aclrtMemcpyKind;

typedef enum aclrtMemMallocPolicy {
    ACL_MEM_MALLOC_HUGE_FIRST,
    ACL_MEM_MALLOC_HUGE_ONLY,
    ACL_MEM_MALLOC_NORMAL_ONLY,
    ACL_MEM_MALLOC_HUGE_FIRST_P2P,
    ACL_MEM_MALLOC_HUGE_ONLY_P2P,
    ACL_MEM_MALLOC_NORMAL_ONLY_P2P,
} aclrtMemMallocPolicy;

typedef enum aclDataType {
    ACL_DT_UNDEFINED = -1,
    ACL_FLOAT = 0,
    ACL_FLOAT16 = 1,
    ACL_INT8 = 2,
    ACL_INT32 = 3,
    ACL_UINT8 = 4,
    ACL_INT16 = 6,
    ACL_UINT16 = 7,
    ACL_UINT32 = 8,
    ACL_INT64 = 9,
    ACL_UINT64 = 10,
    ACL_DOUBLE = 11,
    ACL_BOOL = 12,
    ACL_STRING = 13,
    ACL_COMPLEX64 = 16,
    ACL_COMPLEX128 = 17,
    ACL_BF16 = 27,
} aclDataType;

namespace AscendC {
namespace sim {
namespace acl {

// One emulated device (id 0) with its default context; streams/events are distinct tokens.
struct State {
    bool initialized = false;
    int32_t device = -1;
    int tokens = 0;
    char err[256] = {0};
};
inline State& state() {
    static State s;
    return s;
}
inline void* new_token() { return reinterpret_cast<void*>(static_cast<uintptr_t>(0x1000 + 16 * ++state().tokens)); }

inline aclError invalid(const char* api, const char* why) {
    __builtin_snprintf(state().err, sizeof state().err, "%s: %s", api, why);
    return ACL_ERROR_INVALID_PARAM;
}

}  // namespace acl
}  // namespace sim
}  // namespace AscendC

inline size_t aclDataTypeSize(aclDataType t) {
    switch (t) {
        case ACL_BOOL: case ACL_INT8: case ACL_UINT8: return 1;
        case ACL_FLOAT16: case ACL_BF16: case ACL_INT16: case ACL_UINT16: return 2;
        case ACL_FLOAT: case ACL_INT32: case ACL_UINT32: return 4;
        case ACL_INT64: case ACL_UINT64: case ACL_DOUBLE: case ACL_COMPLEX64: return 8;
        case ACL_COMPLEX128: return 16;
        default: return 0;
    }
}
inline float aclFloat16ToFloat(aclFloat16 v) { return ::AscendC::sim::half_bits_to_float(v); }
inline aclFloat16 aclFloatToFloat16(float v) { return ::AscendC::sim::float_to_half_bits(v); }
inline const char* aclGetRecentErrMsg() {
    return ::AscendC::sim::acl::state().err[0] ? ::AscendC::sim::acl::state().err : nullptr;
}

inline aclError aclInit(const char* configPath) {
    (void)configPath;
    auto& s = ::AscendC::sim::acl::state();
    if (s.initialized) return ACL_ERROR_REPEAT_INITIALIZE;
    s.initialized = true;
    return ACL_SUCCESS;
}
inline aclError aclFinalize() {
    ::AscendC::sim::acl::state().initialized = false;
    return ACL_SUCCESS;
}
inline aclError aclrtGetDeviceCount(uint32_t* count) {
    if (count == nullptr) return ::AscendC::sim::acl::invalid("aclrtGetDeviceCount", "count is null");
    *count = 1;
    return ACL_SUCCESS;
}
inline aclError aclrtSetDevice(int32_t deviceId) {
    if (deviceId != 0) return ::AscendC::sim::acl::invalid("aclrtSetDevice", "the CPU emulation has device 0 only");
    ::AscendC::sim::acl::state().device = deviceId;
    return ACL_SUCCESS;
}
inline aclError aclrtGetDevice(int32_t* deviceId) {
    if (deviceId == nullptr) return ::AscendC::sim::acl::invalid("aclrtGetDevice", "deviceId is null");
    if (::AscendC::sim::acl::state().device < 0) return ::AscendC::sim::acl::invalid("aclrtGetDevice", "no device set");
    *deviceId = ::AscendC::sim::acl::state().device;
    return ACL_SUCCESS;
}
inline aclError aclrtResetDevice(int32_t deviceId) {
    if (deviceId != 0) return ::AscendC::sim::acl::invalid("aclrtResetDevice", "the CPU emulation has device 0 only");
    ::AscendC::sim::acl::state().device = -1;
    return ACL_SUCCESS;
}
inline aclError aclrtSynchronizeDevice() { return ACL_SUCCESS; }
inline aclError aclrtGetRunMode(aclrtRunMode* runMode) {
    if (runMode == nullptr) return ::AscendC::sim::acl::invalid("aclrtGetRunMode", "runMode is null");
    *runMode = ACL_HOST;
    return ACL_SUCCESS;
}

inline aclError aclrtCreateContext(aclrtContext* context, int32_t deviceId) {
    if (context == nullptr || deviceId != 0) return ::AscendC::sim::acl::invalid("aclrtCreateContext", "bad context or device");
    *context = ::AscendC::sim::acl::new_token();
    return ACL_SUCCESS;
}
inline aclError aclrtDestroyContext(aclrtContext context) {
    return context ? ACL_SUCCESS : ::AscendC::sim::acl::invalid("aclrtDestroyContext", "context is null");
}
inline aclError aclrtSetCurrentContext(aclrtContext context) {
    return context ? ACL_SUCCESS : ::AscendC::sim::acl::invalid("aclrtSetCurrentContext", "context is null");
}
inline aclError aclrtGetCurrentContext(aclrtContext* context) {
    if (context == nullptr) return ::AscendC::sim::acl::invalid("aclrtGetCurrentContext", "context is null");
    *context = reinterpret_cast<aclrtContext>(static_cast<uintptr_t>(0x1000));
    return ACL_SUCCESS;
}

inline aclError aclrtCreateStream(aclrtStream* stream) {
    if (stream == nullptr) return ::AscendC::sim::acl::invalid("aclrtCreateStream", "stream is null");
    *stream = ::AscendC::sim::acl::new_token();
    return ACL_SUCCESS;
}
inline aclError aclrtDestroyStream(aclrtStream stream) {
    return stream ? ACL_SUCCESS : ::AscendC::sim::acl::invalid("aclrtDestroyStream", "stream is null");
}
// Launches run to completion when they are made, so there is never anything to wait for.
inline aclError aclrtSynchronizeStream(aclrtStream stream) {
    (void)stream;
    return ACL_SUCCESS;
}
inline aclError aclrtCreateEvent(aclrtEvent* event) {
    if (event == nullptr) return ::AscendC::sim::acl::invalid("aclrtCreateEvent", "event is null");
    *event = ::AscendC::sim::acl::new_token();
    return ACL_SUCCESS;
}
inline aclError aclrtDestroyEvent(aclrtEvent event) {
    return event ? ACL_SUCCESS : ::AscendC::sim::acl::invalid("aclrtDestroyEvent", "event is null");
}
inline aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream) {
    (void)stream;
    return event ? ACL_SUCCESS : ::AscendC::sim::acl::invalid("aclrtRecordEvent", "event is null");
}
inline aclError aclrtSynchronizeEvent(aclrtEvent event) {
    return event ? ACL_SUCCESS : ::AscendC::sim::acl::invalid("aclrtSynchronizeEvent", "event is null");
}
// Wall time means nothing for an emulated kernel: the modelled time is in the report.
inline aclError aclrtEventElapsedTime(float* ms, aclrtEvent start, aclrtEvent end) {
    if (ms == nullptr || start == nullptr || end == nullptr) {
        return ::AscendC::sim::acl::invalid("aclrtEventElapsedTime", "null argument");
    }
    *ms = 0.0f;
    return ACL_SUCCESS;
}

#if !defined(ASCEND_SIM_DEVICE_CODE_POISONED)
namespace AscendC {
namespace sim {
ASCEND_SIM_API bool gm_contains(const void* p, uint64_t bytes, std::string* why);  // runtime_impl.h
namespace acl {

// The device side of a copy must lie inside one aclrtMalloc'd (GmAlloc'd) buffer.
inline bool device_range(const void* p, size_t bytes) { return gm_contains(p, bytes ? bytes : 1, nullptr); }

inline aclError check_copy(const char* api, void* dst, size_t destMax, const void* src, size_t count,
                           aclrtMemcpyKind kind) {
    if (dst == nullptr || src == nullptr) return invalid(api, "null pointer");
    if (count > destMax) return invalid(api, "count is larger than destMax");
    const bool dst_dev = kind == ACL_MEMCPY_HOST_TO_DEVICE || kind == ACL_MEMCPY_DEVICE_TO_DEVICE;
    const bool src_dev = kind == ACL_MEMCPY_DEVICE_TO_HOST || kind == ACL_MEMCPY_DEVICE_TO_DEVICE;
    if (kind < ACL_MEMCPY_HOST_TO_HOST || kind > ACL_MEMCPY_DEFAULT) return invalid(api, "unknown aclrtMemcpyKind");
    if (dst_dev && !device_range(dst, count)) return invalid(api, "dst is not inside one aclrtMalloc'd device buffer");
    if (src_dev && !device_range(src, count)) return invalid(api, "src is not inside one aclrtMalloc'd device buffer");
    return ACL_SUCCESS;
}

}  // namespace acl
}  // namespace sim
}  // namespace AscendC

// The SoC the emulator models (ASCEND_SIM_SOC, default Ascend910B2).
inline const char* aclrtGetSocName() {
    const char* soc = std::getenv("ASCEND_SIM_SOC");
    return soc && *soc ? soc : "Ascend910B2";
}

inline aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy policy) {
    (void)policy;
    if (devPtr == nullptr || size == 0) return ::AscendC::sim::acl::invalid("aclrtMalloc", "null devPtr or size 0");
    *devPtr = ::AscendC::GmAlloc(size);
    return *devPtr ? ACL_SUCCESS : ACL_ERROR_BAD_ALLOC;
}
inline aclError aclrtFree(void* devPtr) {
    if (devPtr == nullptr || !::AscendC::sim::gm_owns(devPtr)) {
        return ::AscendC::sim::acl::invalid("aclrtFree", "pointer was not returned by aclrtMalloc");
    }
    ::AscendC::GmFree(devPtr);
    return ACL_SUCCESS;
}
inline aclError aclrtMallocHost(void** hostPtr, size_t size) {
    if (hostPtr == nullptr || size == 0) return ::AscendC::sim::acl::invalid("aclrtMallocHost", "null hostPtr or size 0");
    *hostPtr = __builtin_malloc(size);
    return *hostPtr ? ACL_SUCCESS : ACL_ERROR_BAD_ALLOC;
}
inline aclError aclrtFreeHost(void* hostPtr) {
    if (hostPtr == nullptr) return ::AscendC::sim::acl::invalid("aclrtFreeHost", "hostPtr is null");
    __builtin_free(hostPtr);
    return ACL_SUCCESS;
}
inline aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind) {
    const aclError e = ::AscendC::sim::acl::check_copy("aclrtMemcpy", dst, destMax, src, count, kind);
    if (e != ACL_SUCCESS) return e;
    __builtin_memmove(dst, src, count);
    return ACL_SUCCESS;
}
inline aclError aclrtMemcpyAsync(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind,
                                 aclrtStream stream) {
    (void)stream;
    const aclError e = ::AscendC::sim::acl::check_copy("aclrtMemcpyAsync", dst, destMax, src, count, kind);
    if (e != ACL_SUCCESS) return e;
    __builtin_memmove(dst, src, count);
    return ACL_SUCCESS;
}
inline aclError aclrtMemset(void* devPtr, size_t maxCount, int32_t value, size_t count) {
    if (devPtr == nullptr || count > maxCount) return ::AscendC::sim::acl::invalid("aclrtMemset", "null pointer or count > maxCount");
    __builtin_memset(devPtr, value, count);
    return ACL_SUCCESS;
}
inline aclError aclrtMemsetAsync(void* devPtr, size_t maxCount, int32_t value, size_t count, aclrtStream stream) {
    (void)stream;
    return aclrtMemset(devPtr, maxCount, value, count);
}
#endif  // !ASCEND_SIM_DEVICE_CODE_POISONED

#include "../ascend_sim/noinstr_end.h"
