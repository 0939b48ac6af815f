// securec.h — Huawei's bounds-checked C library functions (libboundscheck / securec), as CANN
// host programs use them: memcpy_s, memmove_s, memset_s, strcpy_s, strncpy_s, strcat_s,
// strncat_s, sprintf_s, snprintf_s, vsprintf_s, vsnprintf_s, with errno_t and EOK.
//
// Semantics follow libboundscheck's documentation (openeuler/libboundscheck): a destination
// that is null or has destMax 0 (or above SECUREC_MEM_MAX_LEN / SECUREC_STRING_MAX_LEN) is
// EINVAL and untouched; a null source, a count larger than destMax or overlapping buffers
// clear the destination and return EINVAL_AND_RESET / ERANGE_AND_RESET / EOVERLAP_AND_RESET
// (the "_AND_RESET" codes are the base code | 0x80); the string functions also fail with
// ERANGE_AND_RESET when the result (with its terminator) does not fit, leaving dest[0] = '\0';
// sprintf_s/snprintf_s return the character count or -1.
//
// Host code only: after kernel_operator.h these names are poisoned (ascend_sim/device_code.h),
// as there is no C library on an AI core.
#pragma once

#include <cerrno>
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>

#ifndef EOK
#define EOK 0
#endif
typedef int errno_t;

#define SECUREC_MEM_MAX_LEN 0x7fffffffUL
#define SECUREC_STRING_MAX_LEN 0x7fffffffUL
#ifndef EINVAL_AND_RESET
#define EINVAL_AND_RESET (22 | 128)
#endif
#ifndef ERANGE_AND_RESET
#define ERANGE_AND_RESET (34 | 128)
#endif
#ifndef EOVERLAP_AND_RESET
#define EOVERLAP_AND_RESET (54 | 128)
#endif

#if !defined(ASCEND_SIM_DEVICE_CODE_POISONED)
namespace ascend_sim_securec {
inline bool overlap(const void* a, size_t na, const void* b, size_t nb) {
    const auto pa = reinterpret_cast<uintptr_t>(a), pb = reinterpret_cast<uintptr_t>(b);
    return pa < pb + nb && pb < pa + na;
}
inline bool bad_dest(const void* dest, size_t destMax, size_t limit) { return dest == nullptr || destMax == 0 || destMax > limit; }
}  // namespace ascend_sim_securec

inline errno_t memcpy_s(void* dest, size_t destMax, const void* src, size_t count) {
    if (ascend_sim_securec::bad_dest(dest, destMax, SECUREC_MEM_MAX_LEN)) return EINVAL;
    if (src == nullptr) {
        std::memset(dest, 0, destMax);
        return EINVAL_AND_RESET;
    }
    if (count > destMax) {
        std::memset(dest, 0, destMax);
        return ERANGE_AND_RESET;
    }
    if (count == 0 || dest == src) return EOK;
    if (ascend_sim_securec::overlap(dest, count, src, count)) {
        std::memset(dest, 0, destMax);
        return EOVERLAP_AND_RESET;
    }
    std::memcpy(dest, src, count);
    return EOK;
}

inline errno_t memmove_s(void* dest, size_t destMax, const void* src, size_t count) {
    if (ascend_sim_securec::bad_dest(dest, destMax, SECUREC_MEM_MAX_LEN)) return EINVAL;
    if (src == nullptr) {
        std::memset(dest, 0, destMax);
        return EINVAL_AND_RESET;
    }
    if (count > destMax) {
        std::memset(dest, 0, destMax);
        return ERANGE_AND_RESET;
    }
    std::memmove(dest, src, count);
    return EOK;
}

inline errno_t memset_s(void* dest, size_t destMax, int c, size_t count) {
    if (ascend_sim_securec::bad_dest(dest, destMax, SECUREC_MEM_MAX_LEN)) return EINVAL;
    if (count > destMax) {
        std::memset(dest, c, destMax);
        return ERANGE_AND_RESET;
    }
    std::memset(dest, c, count);
    return EOK;
}

inline errno_t strncpy_s(char* dest, size_t destMax, const char* src, size_t count) {
    if (ascend_sim_securec::bad_dest(dest, destMax, SECUREC_STRING_MAX_LEN)) return EINVAL;
    if (src == nullptr) {
        dest[0] = '\0';
        return EINVAL_AND_RESET;
    }
    const size_t len = std::strlen(src) < count ? std::strlen(src) : count;
    if (len + 1 > destMax) {
        dest[0] = '\0';
        return ERANGE_AND_RESET;
    }
    if (ascend_sim_securec::overlap(dest, len + 1, src, len + 1)) {
        dest[0] = '\0';
        return EOVERLAP_AND_RESET;
    }
    std::memcpy(dest, src, len);
    dest[len] = '\0';
    return EOK;
}

inline errno_t strcpy_s(char* dest, size_t destMax, const char* src) {
    return strncpy_s(dest, destMax, src, src ? std::strlen(src) : 0);
}

inline errno_t strncat_s(char* dest, size_t destMax, const char* src, size_t count) {
    if (ascend_sim_securec::bad_dest(dest, destMax, SECUREC_STRING_MAX_LEN)) return EINVAL;
    if (src == nullptr) {
        dest[0] = '\0';
        return EINVAL_AND_RESET;
    }
    const size_t have = strnlen(dest, destMax);
    if (have == destMax) {  // dest is not terminated inside destMax
        dest[0] = '\0';
        return EINVAL_AND_RESET;
    }
    const size_t add = std::strlen(src) < count ? std::strlen(src) : count;
    if (have + add + 1 > destMax) {
        dest[0] = '\0';
        return ERANGE_AND_RESET;
    }
    std::memmove(dest + have, src, add);
    dest[have + add] = '\0';
    return EOK;
}

inline errno_t strcat_s(char* dest, size_t destMax, const char* src) {
    return strncat_s(dest, destMax, src, src ? std::strlen(src) : 0);
}

inline int vsnprintf_s(char* dest, size_t destMax, size_t count, const char* format, va_list ap) {
    if (ascend_sim_securec::bad_dest(dest, destMax, SECUREC_STRING_MAX_LEN) || format == nullptr) {
        if (dest != nullptr && destMax > 0) dest[0] = '\0';
        return -1;
    }
    const size_t room = count < destMax ? count + 1 : destMax;
    const int n = std::vsnprintf(dest, room, format, ap);
    if (n < 0 || static_cast<size_t>(n) >= room) {
        // truncated: snprintf_s keeps the truncated text only when count < destMax
        if (!(count < destMax) || n < 0) dest[0] = '\0';
        return -1;
    }
    return n;
}

inline int vsprintf_s(char* dest, size_t destMax, const char* format, va_list ap) {
    if (ascend_sim_securec::bad_dest(dest, destMax, SECUREC_STRING_MAX_LEN) || format == nullptr) {
        if (dest != nullptr && destMax > 0) dest[0] = '\0';
        return -1;
    }
    const int n = std::vsnprintf(dest, destMax, format, ap);
    if (n < 0 || static_cast<size_t>(n) >= destMax) {
        dest[0] = '\0';
        return -1;
    }
    return n;
}

inline int snprintf_s(char* dest, size_t destMax, size_t count, const char* format, ...)
    __attribute__((format(printf, 4, 5)));
inline int snprintf_s(char* dest, size_t destMax, size_t count, const char* format, ...) {
    va_list ap;
    va_start(ap, format);
    const int n = vsnprintf_s(dest, destMax, count, format, ap);
    va_end(ap);
    return n;
}

inline int sprintf_s(char* dest, size_t destMax, const char* format, ...) __attribute__((format(printf, 3, 4)));
inline int sprintf_s(char* dest, size_t destMax, const char* format, ...) {
    va_list ap;
    va_start(ap, format);
    const int n = vsprintf_s(dest, destMax, format, ap);
    va_end(ap);
    return n;
}
#endif  // !ASCEND_SIM_DEVICE_CODE_POISONED
