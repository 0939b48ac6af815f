// ascend_sim: an integer division by zero in the kernel's own code, finished instead of trapped.
//
// x86 raises SIGFPE (#DE) on `div`/`idiv` by zero and on a quotient that does not fit; the NPU's
// scalar unit does not trap: NPUKernelBench's Catlass answers compute `startTileIdx % kLoopsNext`
// for a next block that does not exist (kLoopsNext == 0) and never use the value, and they pass on
// the NPU. The SIGFPE handler (runtime_impl.h) calls finish_int_division for a fault in the
// kernel's code: it decodes the faulting instruction, writes the result registers and steps over
// it. By zero: quotient 0, remainder the dividend — an assumption (Ascend documents no value), so
// the run reports it as a warning (INT_DIV_ZERO) at the kernel's last API call before it.
// A quotient that does not fit (INT_MIN / -1) wraps, as two's-complement hardware computes it.
// Only x86-64 traps: on AArch64 `sdiv`/`udiv` by zero give 0 already, and nothing calls this.
#pragma once

#include <signal.h>
#include <ucontext.h>

#include <cstdint>
#include <cstring>

namespace AscendC {
namespace sim {

#if defined(__x86_64__)
namespace int_division {

// x86 register numbers (ModRM/SIB encoding, REX-extended) -> ucontext's gregs indices.
inline constexpr int kGreg[16] = {REG_RAX, REG_RCX, REG_RDX, REG_RBX, REG_RSP, REG_RBP, REG_RSI, REG_RDI,
                                  REG_R8,  REG_R9,  REG_R10, REG_R11, REG_R12, REG_R13, REG_R14, REG_R15};

inline uint64_t mask(int bytes) { return bytes == 8 ? ~0ULL : (1ULL << (8 * bytes)) - 1; }

}  // namespace int_division

// True when the instruction at the context's RIP is a `div`/`idiv` (F6 /6, F6 /7, F7 /6, F7 /7),
// now finished: results written, RIP past it. False leaves the context untouched (a real crash).
inline bool finish_int_division(ucontext_t* uc) {
    using namespace int_division;
    greg_t* g = uc->uc_mcontext.gregs;
    const uint8_t* ip = reinterpret_cast<const uint8_t*>(g[REG_RIP]);
    size_t i = 0;
    bool op16 = false;
    for (;; ++i) {  // legacy prefixes
        const uint8_t b = ip[i];
        if (b == 0x66) {
            op16 = true;
        } else if (!(b == 0x67 || b == 0xF2 || b == 0xF3 || b == 0x2E || b == 0x36 || b == 0x3E || b == 0x26 ||
                     b == 0x64 || b == 0x65)) {
            break;
        }
        if (i >= 4) return false;
    }
    uint8_t rex = 0;
    if ((ip[i] & 0xF0) == 0x40) rex = ip[i++];
    const uint8_t op = ip[i++];
    if (op != 0xF6 && op != 0xF7) return false;
    const uint8_t modrm = ip[i++];
    const int reg = (modrm >> 3) & 7, mod = modrm >> 6, rm = modrm & 7;
    if (reg != 6 && reg != 7) return false;
    const bool is_signed = reg == 7;
    const int bytes = op == 0xF6 ? 1 : (rex & 0x08) ? 8 : op16 ? 2 : 4;
    const int rex_b = (rex & 0x01) << 3, rex_x = (rex & 0x02) << 2;

    uint64_t divisor = 0;
    if (mod == 3) {
        if (bytes == 1 && rex == 0 && rm >= 4) {
            divisor = (static_cast<uint64_t>(g[kGreg[rm - 4]]) >> 8) & 0xFF;  // AH, CH, DH, BH
        } else {
            divisor = static_cast<uint64_t>(g[kGreg[rm | rex_b]]) & mask(bytes);
        }
    } else {
        uint64_t addr = 0;
        bool rip_relative = false;
        if (rm == 4) {
            const uint8_t sib = ip[i++];
            const int index = ((sib >> 3) & 7) | rex_x, base = (sib & 7) | rex_b;
            if (index != 4) addr += static_cast<uint64_t>(g[kGreg[index]]) << (sib >> 6);
            if ((sib & 7) == 5 && mod == 0) {
                int32_t d;
                std::memcpy(&d, ip + i, 4);
                i += 4;
                addr += static_cast<uint64_t>(static_cast<int64_t>(d));
            } else {
                addr += static_cast<uint64_t>(g[kGreg[base]]);
            }
        } else if (rm == 5 && mod == 0) {
            int32_t d;
            std::memcpy(&d, ip + i, 4);
            i += 4;
            addr = static_cast<uint64_t>(static_cast<int64_t>(d));
            rip_relative = true;
        } else {
            addr = static_cast<uint64_t>(g[kGreg[rm | rex_b]]);
        }
        if (mod == 1) {
            addr += static_cast<uint64_t>(static_cast<int64_t>(static_cast<int8_t>(ip[i])));
            i += 1;
        } else if (mod == 2) {
            int32_t d;
            std::memcpy(&d, ip + i, 4);
            i += 4;
            addr += static_cast<uint64_t>(static_cast<int64_t>(d));
        }
        if (rip_relative) addr += reinterpret_cast<uint64_t>(ip + i);  // F6/F7 /6 /7 carry no immediate
        std::memcpy(&divisor, reinterpret_cast<const void*>(addr), static_cast<size_t>(bytes));
    }

    const uint64_t rax = static_cast<uint64_t>(g[REG_RAX]), rdx = static_cast<uint64_t>(g[REG_RDX]);
    // The dividend, twice the operand's width: AX; DX:AX; EDX:EAX; RDX:RAX.
    unsigned __int128 dividend;
    if (bytes == 1) {
        dividend = rax & 0xFFFF;
    } else {
        dividend = (static_cast<unsigned __int128>(rdx & mask(bytes)) << (8 * bytes)) | (rax & mask(bytes));
    }
    const int bits = 16 * bytes;  // the dividend's width
    uint64_t q, r;
    if ((divisor & mask(bytes)) == 0) {
        q = 0;
        r = static_cast<uint64_t>(dividend) & mask(bytes);
    } else if (is_signed) {
        // sign-extend the dividend and the divisor, divide in 128 bits, keep the low bytes
        __int128 n = static_cast<__int128>(dividend << (128 - bits)) >> (128 - bits);
        __int128 d = static_cast<__int128>(static_cast<unsigned __int128>(divisor) << (128 - 8 * bytes)) >>
                     (128 - 8 * bytes);
        q = static_cast<uint64_t>(static_cast<unsigned __int128>(n / d)) & mask(bytes);
        r = static_cast<uint64_t>(static_cast<unsigned __int128>(n % d)) & mask(bytes);
    } else {
        q = static_cast<uint64_t>(dividend / divisor) & mask(bytes);
        r = static_cast<uint64_t>(dividend % divisor) & mask(bytes);
    }
    if (bytes == 1) {
        g[REG_RAX] = static_cast<greg_t>((rax & ~0xFFFFULL) | (r << 8) | q);
    } else if (bytes == 2) {
        g[REG_RAX] = static_cast<greg_t>((rax & ~0xFFFFULL) | q);
        g[REG_RDX] = static_cast<greg_t>((rdx & ~0xFFFFULL) | r);
    } else {  // a 32-bit result zero-extends into the 64-bit register
        g[REG_RAX] = static_cast<greg_t>(q);
        g[REG_RDX] = static_cast<greg_t>(r);
    }
    g[REG_RIP] = static_cast<greg_t>(reinterpret_cast<uint64_t>(ip + i));
    return true;
}
#else
inline bool finish_int_division(ucontext_t*) { return false; }
#endif

}  // namespace sim
}  // namespace AscendC
