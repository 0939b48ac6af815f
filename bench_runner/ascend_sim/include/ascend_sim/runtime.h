// ascend_sim: runtime state shared by the API headers — pipes, buffer blocks, per-core context,
// the process-wide Runtime, and the hot inline helpers (enter, charge). The rest of the runtime
// lives in runtime_impl.h.
//
// Everything defined here is `inline` (functions, variables) so a kernel .cpp and a host .cpp
// that both include the headers link into one program and share one runtime.
#pragma once


#include <algorithm>
#include <atomic>
#include <deque>
#include <initializer_list>
#include <string>
#include <vector>

#include "base.h"
#include "half.h"
#include "host_api.h"
#include "params.h"
#include "soc.h"

namespace AscendC {
namespace sim {

// ------------------------------------------------------------------------------------------
// Pipes
// ------------------------------------------------------------------------------------------
enum class Pipe : uint8_t { S = 0, V, M, MTE1, MTE2, MTE3, FIX, COUNT };
constexpr int kPipeCount = static_cast<int>(Pipe::COUNT);

inline const char* pipe_name(Pipe p) {
    static const char* const names[] = {"S", "V", "M", "MTE1", "MTE2", "MTE3", "FIX"};
    return names[static_cast<int>(p)];
}

inline bool pipe_from_builtin(pipe_t p, Pipe& out) {
    switch (p) {
        case PIPE_S: out = Pipe::S; return true;
        case PIPE_V: out = Pipe::V; return true;
        case PIPE_M: out = Pipe::M; return true;
        case PIPE_MTE1: out = Pipe::MTE1; return true;
        case PIPE_MTE2: out = Pipe::MTE2; return true;
        case PIPE_MTE3: out = Pipe::MTE3; return true;
        case PIPE_FIX: out = Pipe::FIX; return true;
        default: return false;
    }
}

// (source pipe, destination pipe) of each HardEvent, named SRC_DST.
inline void event_pipes(HardEvent e, Pipe& src, Pipe& dst) {
    static const Pipe table[][2] = {
        {Pipe::MTE2, Pipe::MTE1}, {Pipe::MTE1, Pipe::MTE2}, {Pipe::MTE1, Pipe::M},   {Pipe::M, Pipe::MTE1},
        {Pipe::MTE2, Pipe::V},    {Pipe::V, Pipe::MTE2},    {Pipe::MTE3, Pipe::V},   {Pipe::V, Pipe::MTE3},
        {Pipe::M, Pipe::V},       {Pipe::V, Pipe::M},       {Pipe::V, Pipe::V},      {Pipe::MTE3, Pipe::MTE1},
        {Pipe::MTE1, Pipe::MTE3}, {Pipe::MTE1, Pipe::V},    {Pipe::MTE2, Pipe::M},   {Pipe::M, Pipe::MTE2},
        {Pipe::V, Pipe::MTE1},    {Pipe::M, Pipe::FIX},     {Pipe::FIX, Pipe::M},    {Pipe::MTE3, Pipe::MTE2},
        {Pipe::MTE2, Pipe::MTE3}, {Pipe::S, Pipe::V},       {Pipe::V, Pipe::S},      {Pipe::S, Pipe::MTE2},
        {Pipe::MTE2, Pipe::S},    {Pipe::S, Pipe::MTE3},    {Pipe::MTE3, Pipe::S},   {Pipe::MTE2, Pipe::FIX},
        {Pipe::FIX, Pipe::MTE2},  {Pipe::FIX, Pipe::S},     {Pipe::M, Pipe::S},      {Pipe::FIX, Pipe::MTE3},
        {Pipe::MTE1, Pipe::FIX},  {Pipe::FIX, Pipe::MTE1},  {Pipe::FIX, Pipe::FIX},
    };
    const int i = static_cast<int>(e);
    src = table[i][0];
    dst = table[i][1];
}

inline const char* event_name(HardEvent e) {
    static const char* const names[] = {
        "MTE2_MTE1", "MTE1_MTE2", "MTE1_M",   "M_MTE1",   "MTE2_V",  "V_MTE2",   "MTE3_V",   "V_MTE3",
        "M_V",       "V_M",       "V_V",      "MTE3_MTE1", "MTE1_MTE3", "MTE1_V", "MTE2_M",   "M_MTE2",
        "V_MTE1",    "M_FIX",     "FIX_M",    "MTE3_MTE2", "MTE2_MTE3", "S_V",    "V_S",      "S_MTE2",
        "MTE2_S",    "S_MTE3",    "MTE3_S",   "MTE2_FIX", "FIX_MTE2",  "FIX_S",  "M_S",      "FIX_MTE3",
        "MTE1_FIX",  "FIX_MTE1",  "FIX_FIX",
    };
    const int i = static_cast<int>(e);
    return i < static_cast<int>(HardEvent::MAX) ? names[i] : "MAX";
}

inline const char* position_name(TPosition p) {
    switch (p) {
        case TPosition::GM: return "GM";
        case TPosition::A1: return "A1";
        case TPosition::A2: return "A2";
        case TPosition::B1: return "B1";
        case TPosition::B2: return "B2";
        case TPosition::C1: return "C1";
        case TPosition::C2: return "C2";
        case TPosition::CO1: return "CO1";
        case TPosition::CO2: return "CO2";
        case TPosition::VECIN: return "VECIN";
        case TPosition::VECOUT: return "VECOUT";
        case TPosition::VECCALC: return "VECCALC";
        case TPosition::SPM: return "SPM";
        case TPosition::TSCM: return "TSCM";
        case TPosition::C2PIPE2GM: return "C2PIPE2GM";
        case TPosition::C2PIPE2LOCAL: return "C2PIPE2LOCAL";
        default: return "MAX";
    }
}

inline bool is_ub_position(TPosition p) {
    return p == TPosition::VECIN || p == TPosition::VECOUT || p == TPosition::VECCALC;
}

// Physical memory behind each logical position (ASC TPosition docs, 910B split architecture:
// A1/B1/C1/TSCM -> L1, A2 -> L0A, B2 -> L0B, CO1 -> L0C, C2 -> bias table, C2PIPE2GM -> Fixpipe
// buffer; on 310P (coupled) C2 -> L0C and CO2 -> UB; on 910B CO2 is global memory).
inline Hardware position_hw(TPosition p, bool split_arch) {
    switch (p) {
        case TPosition::VECIN:
        case TPosition::VECOUT:
        case TPosition::VECCALC:
        case TPosition::SPM:
            return Hardware::UB;
        case TPosition::A1:
        case TPosition::B1:
        case TPosition::C1:
        case TPosition::TSCM:
            return Hardware::L1;
        case TPosition::A2: return Hardware::L0A;
        case TPosition::B2: return Hardware::L0B;
        case TPosition::CO1: return Hardware::L0C;
        case TPosition::C2: return split_arch ? Hardware::BIAS : Hardware::L0C;
        case TPosition::CO2: return split_arch ? Hardware::GM : Hardware::UB;
        case TPosition::C2PIPE2GM: return Hardware::FIXBUF;
        default: return Hardware::GM;
    }
}

inline const char* hw_name(Hardware h) {
    static const char* const names[] = {"GM", "UB", "L1", "L0A", "L0B", "L0C", "BT", "FB", "MAX"};
    return names[static_cast<int>(h)];
}

constexpr uint32_t hw_bit(Hardware h) { return 1u << static_cast<int>(h); }
constexpr uint32_t kHwUB = 1u << static_cast<int>(Hardware::UB);
constexpr int kHwCount = static_cast<int>(Hardware::MAX);

// ------------------------------------------------------------------------------------------
// Local buffer blocks (one per queue buffer / TBuf), owned by the core so tensors never dangle.
// ------------------------------------------------------------------------------------------
enum class BufState : uint8_t { FREE = 0, OCCUPIED, ENQUE, DEQUE, DEAD };

inline const char* state_name(BufState s) {
    switch (s) {
        case BufState::FREE: return "FREE";
        case BufState::OCCUPIED: return "OCCUPIED (allocated)";
        case BufState::ENQUE: return "ENQUE (in queue)";
        case BufState::DEQUE: return "DEQUE (dequeued)";
        default: return "RELEASED";
    }
}

struct BlockInfo {
    uint32_t addr = 0;  // byte offset inside the core's Unified Buffer
    uint32_t len = 0;   // bytes
    uint32_t gen = 1;   // bumped by FreeTensor / Reset so stale tensors are caught
    BufState state = BufState::FREE;
    TPosition pos = TPosition::VECCALC;
    Hardware hw = Hardware::UB;  // physical memory (addr is relative to the whole local arena)
    bool is_tbuf = false;
    bool is_static = false;
    // A memory this core type does not have (the UB on an AIC, L1/L0 on an AIV): InitBuffer only
    // computes addresses, as on the NPU (Catlass sets up every memory on every core); a use fails.
    bool absent = false;
    const void* owner = nullptr;
    int index = 0;
    uint32_t slot = 0;       // position in its core's `blocks` (owned_block); kStaticSlot for static_block
    uint64_t write_end = 0;  // when the last writer of this buffer finishes
    uint64_t read_end = 0;   // when the last reader finishes
    uint64_t enq_time = 0;   // EnQue's flag time (end of the producer pipe)
    uint64_t free_time = 0;  // FreeTensor's flag time (end of the consumer pipe)
};

constexpr uint32_t kStaticSlot = 0xFFFFFFFFu;

struct TimelineEvent {
    int32_t core;
    uint8_t pipe;
    const char* op;
    uint64_t start;
    uint64_t end;
    int32_t line;
};

struct Finding {
    bool error;
    std::string code;
    std::string message;
    std::string file;
    std::string api;
    int line;
    int core;
};

struct CoreCtx {
    int block_idx = 0;
    int block_num = 1;
    int phys_core = 0;
    const SocProfile* soc = nullptr;
    std::vector<uint8_t> ub;       // local memory arena: UB first, then (once used) L1, L0A, L0B, L0C, BT, FB
    std::vector<uint8_t> ub_init;  // shadow: 1 where the byte has been written
    uint64_t hw_base[kHwCount] = {};   // arena offset of each local memory
    uint32_t hw_size[kHwCount] = {};   // its capacity on this SoC
    uint32_t hw_cursor[kHwCount] = {}; // bump allocator per memory (UB uses ub_cursor)
    bool cube_arena = false;           // L1/L0 part of the arena materialised
    bool is_aic = false;               // this emulated core is a cube core (AIC_MODE, or the AIC of a MIX group)
    int sub_block_idx = 0;             // MIX: which AIV of the group (0/1)
    int sub_block_num = 1;
    std::deque<BlockInfo> blocks;
    BlockInfo static_block;        // backs LocalTensor(pos, addr, size) static tensors
    uint32_t ub_cursor = 0;
    // Bytes of UB address space TPipe::InitBuffer may place buffers in: past the physical UB
    // (soc->ub_bytes) as on the NPU, where InitBuffer only computes addresses; an access to a byte
    // there is UB_OVERFLOW (view_raw clamps every view to the physical UB).
    uint32_t ub_space = 0;
    int buffers_total = 0;
    int per_pos_buffers[static_cast<int>(TPosition::MAX) + 1] = {};
    int pipes_alive = 0;
    void* current_pipe = nullptr;
    // cost model
    uint64_t pipe_free[kPipeCount] = {};
    uint64_t pipe_busy[kPipeCount] = {};
    uint64_t s_now = 0;
    uint64_t gm_read = 0;
    uint64_t gm_write = 0;
    double mte2_bpc = 1.0;
    double mte3_bpc = 1.0;
    double l1_hbm_bpc = 1.0;   // GM -> L1 bytes/cycle for data not yet in L2 (first touch)
    double l1_l2_bpc = 1.0;    // GM -> L1 bytes/cycle for L2 hits
    double fix_gm_bpc = 1.0;   // L0C -> GM bytes/cycle
    uint64_t l1_read = 0;      // bytes loaded from GM into L1 / L0 by the cube (MTE2)
    uint64_t cube_macs = 0;    // useful multiply-accumulates issued by Mmad (m * n * k)
    std::vector<TimelineEvent> timeline;
    size_t timeline_cap = 0;
    bool timeline_truncated = false;
    // explicit flags (SetFlag / WaitFlag): binary, per event type and id 0..7
    bool flag_set[static_cast<int>(HardEvent::MAX)][8] = {};
    uint64_t flag_time[static_cast<int>(HardEvent::MAX)][8] = {};
    SrcLoc flag_loc[static_cast<int>(HardEvent::MAX)][8];
    uint8_t event_reserved[static_cast<int>(HardEvent::MAX)] = {};
    // vector mask registers
    bool mask_counter_mode = false;
    uint64_t mask_lo = FULL_MASK;
    uint64_t mask_hi = FULL_MASK;
    uint64_t cmp_mask[2] = {0, 0};  // CMPMASK register (Compare without dst, Select mode 0)
    uint64_t deq_scale = 0;  // DEQSCALE register (SetDeqScale); deq_set: written since the launch began
    bool deq_set = false;
    uint64_t acc_val = 0;    // ACC register: vcadd with mode 1 (read by get_acc_val / GetAccVal)
    uint64_t va_reg[8][8] = {};  // VA0..VA7: eight UB addresses each (set_va_reg_sb, va_intrin.h)
    // MAX_MIN_CNT register: the value (low 32 bits, bit pattern of T) and index (high 32 bits) that the last
    // WholeReduceMax/Min (ReduceRepeat) or ReduceMax/Min left (read by GetReduceMaxMinCount, get_max_min_cnt)
    uint64_t max_min_cnt = 0;
    // atomic mode for UB->GM copies: 0 none, 1 add, 2 max, 3 min
    int atomic_op = 0;
    // scalar work of the kernel's own (instrumented) code, charged by the hooks in scalar_hooks.h
    uint32_t in_api = 0;            // open ApiScopes: emulator code is running, charge nothing
    uint64_t scalar_blocks = 0;     // basic blocks executed
    uint64_t scalar_ub_access = 0;  // raw loads/stores into on-chip memory (8-byte units)
    uint64_t scalar_gm_access = 0;  // raw loads/stores into global memory (8-byte units)
    uintptr_t stack_lo = 0;         // this core thread's stack: the kernel's locals live there
    uintptr_t stack_hi = 0;
    // The kernel's frames lie in [stack_lo, kernel_stack_top): above it are the launcher's frames
    // and the thread's TLS. Stores by kernel code go only below it, to global memory or to this
    // core's local memory (scalar_hooks.h, scalar_access).
    uintptr_t kernel_stack_top = 0;
    bool in_kernel = false;  // the kernel's body is running (call_kernel): its allocations are tracked
    // Reads by the kernel's own code elsewhere, not yet re-checked: the compiler checks a
    // read-modify-write once, at its read, so the bytes read must be unchanged at the next check
    // (every call-back, every API entry, the kernel's end: scalar_hooks.h, verify_reads).
    static constexpr uint32_t kWatchedReads = 8;
    uint32_t reads_pending = 0;
    uintptr_t read_addr[kWatchedReads] = {};
    uint64_t read_len[kWatchedReads] = {};
    uint64_t read_hash[kWatchedReads] = {};
    // Heap blocks that code running for the kernel allocated (host-side helpers such as ge::Shape
    // that the kernel calls): the kernel's own code may store into them (scalar_hooks.h).
    static constexpr uint32_t kKernelAllocs = 128;
    uint32_t kernel_alloc_count = 0;
    uintptr_t kernel_alloc_lo[kKernelAllocs] = {};
    uintptr_t kernel_alloc_hi[kKernelAllocs] = {};
    // diagnostics
    const char* last_api = "";
    SrcLoc last_loc{"", 0};
    // integer divisions by zero the kernel's own code made (finished as the NPU would: int_division.h)
    uint64_t int_div_faults = 0;
    const char* int_div_api = "";
    SrcLoc int_div_loc{"", 0};
    std::atomic<bool> finished{false};
    std::atomic<bool> running{false};
};

struct SimAbort {};

// Element types, for the few out-of-line paths that need to know them (atomics, messages).
enum class DType : uint8_t { F16, BF16, F32, F64, I8, U8, I16, U16, I32, U32, I64, U64, BOOL, OTHER };
template <typename T>
constexpr DType dtype_of() {
    return std::is_same<T, half>::value         ? DType::F16
           : std::is_same<T, bfloat16_t>::value ? DType::BF16
           : std::is_same<T, float>::value      ? DType::F32
           : std::is_same<T, double>::value     ? DType::F64
           : std::is_same<T, int8_t>::value     ? DType::I8
           : std::is_same<T, uint8_t>::value    ? DType::U8
           : std::is_same<T, int16_t>::value    ? DType::I16
           : std::is_same<T, uint16_t>::value   ? DType::U16
           : std::is_same<T, int32_t>::value    ? DType::I32
           : std::is_same<T, uint32_t>::value   ? DType::U32
           : std::is_same<T, int64_t>::value    ? DType::I64
           : std::is_same<T, uint64_t>::value   ? DType::U64
           : std::is_same<T, bool>::value       ? DType::BOOL
                                                : DType::OTHER;
}

// A LocalTensor operand reduced to plain data, so the checks can live out of line.
struct TensorRef {
    BlockInfo* blk;
    uint32_t gen;
    uint32_t off;    // bytes from the start of the buffer
    uint64_t bytes;  // tensor extent (GetSize() * sizeof(T))
};

// Resolved view of a LocalTensor operand after validity checks.
struct LocalView {
    uint8_t* data;      // first byte of the tensor
    uint8_t* shadow;    // matching shadow byte (1 = written)
    BlockInfo* blk;
    uint64_t extent;    // bytes from `data` to the end of the tensor
    uint64_t blk_room;  // bytes from `data` to the end of its buffer
    // Set when extent / blk_room stop at the end of the physical UB before the tensor's or its
    // buffer's own end: an access past them is UB_OVERFLOW, not LOCAL_OOB.
    bool past_ub = false;
};

struct Access {
    BlockInfo* blk;
    bool write;
};

// Queue state shared by every TQueBind / TBuf instantiation.
struct QueueState {
    TPosition src = TPosition::GM;
    TPosition dst = TPosition::VECIN;
    TPosition pos = TPosition::VECIN;  // physical position of the buffers
    int32_t depth = 0;
    int num = 0;
    uint32_t len = 0;
    BlockInfo* blocks[64] = {};
    int alloc_cursor = 0;
    BlockInfo* fifo[64] = {};
    int fifo_head = 0;
    int fifo_count = 0;
    bool inited = false;
    bool is_tbuf = false;
    int core = -1;
    SrcLoc last_enque{"", 0};
};

// Producer and consumer pipes of a queue edge (ASC kernel_event.h GetQueEvt, vector subset).
inline void que_pipes(TPosition src, TPosition dst, Pipe& producer, Pipe& consumer) {
    // Cube edges (ASC kernel_event.h): GM->L1 MTE2_MTE1, L1->L0A/L0B MTE1_M, L0C->out M_FIX.
    if (src == TPosition::A1 || src == TPosition::B1 || src == TPosition::C1) {
        producer = Pipe::MTE1;
        consumer = Pipe::M;
        return;
    }
    if (src == TPosition::CO1) {
        producer = Pipe::M;
        consumer = Pipe::FIX;
        return;
    }
    if (src == TPosition::CO2) {
        producer = Pipe::FIX;
        consumer = Pipe::MTE3;
        return;
    }
    if (src == TPosition::GM) {
        producer = Pipe::MTE2;
        consumer = (dst == TPosition::A1 || dst == TPosition::B1) ? Pipe::MTE1 : Pipe::V;
    } else if (src == TPosition::VECIN && dst == TPosition::VECOUT) {
        producer = Pipe::MTE2;
        consumer = Pipe::MTE3;
    } else if (dst == TPosition::GM) {
        producer = Pipe::V;
        consumer = Pipe::MTE3;
    } else {
        producer = Pipe::V;
        consumer = Pipe::V;
    }
}

inline uint64_t pipe_time(const CoreCtx& c, Pipe p) {
    return p == Pipe::S ? c.s_now : c.pipe_free[static_cast<int>(p)];
}
inline void pipe_wait(CoreCtx& c, Pipe p, uint64_t t) {
    if (p == Pipe::S) {
        c.s_now = std::max(c.s_now, t);
    } else {
        uint64_t& f = c.pipe_free[static_cast<int>(p)];
        f = std::max(f, t);
    }
}

inline thread_local CoreCtx* tl_core = nullptr;

// Marks the extent of an emulator API call on this core (its body, from the point where it
// enters the runtime). The standard-library code the emulator calls is compiled into the
// instrumented kernel unit too; while a scope is open the scalar-work hooks charge nothing, so
// only the kernel's own code is charged (scalar_hooks.h).
// Fails the run if memory the kernel's own code read outside its stack, GM and local memory has
// changed since (scalar_hooks.h); clears the list.
ASCEND_SIM_API void verify_reads(CoreCtx& c);

// Emulator code that writes into an object or output the kernel handed it (a LocalTensor's
// setters, a queue's state, an output reference) first checks that the memory is the kernel's:
// its stack frames, heap blocks allocated for it, GM or its local memory — never the emulator's
// own records reached by a cast (scalar_hooks.h).
ASCEND_SIM_API void kernel_memory_at(uintptr_t a, uint64_t bytes, const char* api);
inline void kernel_memory(const void* p, uint64_t bytes, const char* api);

// The common case inline (an object on the kernel's stack), the rest out of line; the address
// goes as an integer so the object is not seen to escape (the kernel's code compiles as before).
inline void kernel_memory(const void* p, uint64_t bytes, const char* api) {
    const uintptr_t a = reinterpret_cast<uintptr_t>(p);
    const CoreCtx* c = tl_core;
    if (!c || (a >= c->stack_lo && a < c->kernel_stack_top && bytes <= c->kernel_stack_top - a)) return;
    kernel_memory_at(a, bytes, api);
}

// printf and AscendC::printf take the kernel's format: a `%n` conversion would store the count
// of characters printed through whatever pointer the kernel passes (anywhere in this process), so
// it fails the run (scalar_math.h).
ASCEND_SIM_API void check_print_format(const char* fmt, const char* api);

// The same check for the setters a kernel calls in every launch (GlobalTensor::SetGlobalBuffer,
// the Matmul API's): declared pure, and its result (always 0) folded into a value the setter
// stores, and nothrow, so that seen from the kernel's code the setter still only stores into its
// object — no escaping address, no clobbered memory, no exception edge — and the kernel compiles,
// and is charged, exactly as without the check (a plain call moved every expert's modelled cycles
// by 4: a basic block after each call that could now throw).
ASCEND_SIM_API uintptr_t kernel_owned(uintptr_t a, uint64_t bytes, const char* api) noexcept __attribute__((pure));
#define ASCEND_SIM_OWNED(api) \
    ::AscendC::sim::kernel_owned(reinterpret_cast<uintptr_t>(this), sizeof *this, api)

struct ApiScope {
    inline ApiScope() {
        if (CoreCtx* c = tl_core) {
            if (c->reads_pending && !c->in_api) verify_reads(*c);
            ++c->in_api;
        }
    }
    inline ~ApiScope() {
        if (tl_core) --tl_core->in_api;
    }
    ApiScope(const ApiScope&) = delete;
    ApiScope& operator=(const ApiScope&) = delete;
};

// ---- out-of-line runtime (runtime_impl.h) ----
// Reports an error and stops: inside a core the kernel unwinds (SimAbort) and the launcher
// exits with status 3 after writing the report; on the host it exits at once.
[[noreturn]] ASCEND_SIM_API void fail(const char* code, const char* api, const SrcLoc& loc, const char* fmt, ...)
    __attribute__((format(printf, 4, 5)));
// Reports a warning once per (code, file, line).
ASCEND_SIM_API void warn(const char* code, const char* api, const SrcLoc& loc, const char* fmt, ...)
    __attribute__((format(printf, 4, 5)));
ASCEND_SIM_API bool aborting();
ASCEND_SIM_API const SocProfile* current_soc();
// Every API entry point calls this: it stops a core once another core has failed and
// remembers the call site for crash messages.
ASCEND_SIM_API CoreCtx& enter(const char* api, const SrcLoc& loc);
ASCEND_SIM_API uint64_t core_end_time(const CoreCtx& c);
// Issues one instruction into a pipe (see runtime_impl.h); returns its end time.
ASCEND_SIM_API uint64_t charge(CoreCtx& c, Pipe pipe, uint64_t cycles, const char* op, const SrcLoc& loc,
                               std::initializer_list<Access> accesses, uint32_t issue_extra = 0);
ASCEND_SIM_API void charge_scalar(CoreCtx& c, uint64_t cycles, BlockInfo* wait_for = nullptr, bool write = false);
ASCEND_SIM_API void check_gm(const void* p, uint64_t bytes, bool write, const char* api, const SrcLoc& loc);
// Without the last block's padding: a tiling struct larger than the bytes the host wrote is the
// struct's mismatch, whatever the allocator pads (GET_TILING_DATA).
ASCEND_SIM_API void check_gm_exact(const void* p, uint64_t bytes, const char* api, const SrcLoc& loc);
// Byte accounting: records that [p, p+bytes) of global memory was written by a modelled path
// (a copy, SetValue, Fixpipe, or a charged scalar store). No effect outside watched GM buffers.
ASCEND_SIM_API void gm_mark(const void* p, uint64_t bytes);
// all: SyncAll<false> (every AIC and AIV of a MIX launch)
ASCEND_SIM_API void sync_all(CoreCtx& c, const SrcLoc& loc, const char* api, bool all = false);
// Operand checks.
// A buffer pointer read from kernel-owned memory (a LocalTensor, a queue object on the kernel's
// stack) is used only if it is one of this core's buffers: a forged or stale pointer fails the run
// (BAD_PARAM) instead of letting the emulator read timestamps from, or write them to, memory the
// kernel chose.
ASCEND_SIM_API BlockInfo* owned_block(BlockInfo* b, const char* api, const SrcLoc& loc);
// Who touches an operand, where view_raw's rules depend on it. Vector and DMA operands are told
// apart by the API's name and the operand's role (Inferred); the scalar unit's element accesses
// say what they are.
enum class Touch : uint8_t { Inferred, ScalarRead, ScalarWrite };
ASCEND_SIM_API LocalView view_raw(const TensorRef& t, const char* api, const char* role, const SrcLoc& loc,
                                  uint32_t align, uint32_t hw_mask = kHwUB, Touch touch = Touch::Inferred);
ASCEND_SIM_API void ensure_ub_space(CoreCtx& c);
ASCEND_SIM_API void ensure_cube_arena(CoreCtx& c);
ASCEND_SIM_API bool spills_within_ub(const LocalView& v, uint64_t bytes);
ASCEND_SIM_API void need(const LocalView& v, uint64_t bytes, const char* api, const char* role, const SrcLoc& loc);
[[noreturn]] ASCEND_SIM_API void fail_past_ub(const LocalView& v, uint64_t first, const char* api, const char* role,
                                              const SrcLoc& loc);
ASCEND_SIM_API void check_init(const LocalView& v, uint64_t off, uint64_t bytes, const char* api, const char* role,
                               const SrcLoc& loc);
ASCEND_SIM_API LocalView check_element_raw(const TensorRef& t, uint64_t index, uint64_t esize, const char* api,
                                           const SrcLoc& loc, Touch touch = Touch::ScalarWrite);
inline void mark_written(const LocalView& v, uint64_t off, uint64_t bytes) {
    if (bytes) std::memset(v.shadow + off, 1, bytes);
}
// Pipe, queues and flags.
ASCEND_SIM_API void tpipe_created(void* pipe, const SrcLoc& loc);
ASCEND_SIM_API void tpipe_destroyed(void* pipe);
ASCEND_SIM_API void tpipe_reset(const SrcLoc& loc, bool keep_tbufs = false);
ASCEND_SIM_API void* tpipe_current();
ASCEND_SIM_API TEventID event_alloc(HardEvent evt, const SrcLoc& loc);
ASCEND_SIM_API void event_release(HardEvent evt, TEventID id, const SrcLoc& loc);
ASCEND_SIM_API TEventID event_fetch(HardEvent evt, const SrcLoc& loc);
ASCEND_SIM_API bool init_queue(QueueState& q, int num, uint32_t len, const SrcLoc& loc, bool tbuf);
ASCEND_SIM_API BlockInfo* que_alloc(QueueState& q, const SrcLoc& loc);
ASCEND_SIM_API void que_free(QueueState& q, const TensorRef& t, const SrcLoc& loc);
ASCEND_SIM_API void que_enque(QueueState& q, const TensorRef& t, const SrcLoc& loc);
ASCEND_SIM_API BlockInfo* que_deque(QueueState& q, const SrcLoc& loc);
ASCEND_SIM_API void que_destroyed(QueueState& q);
ASCEND_SIM_API BlockInfo* tbuf_block(QueueState& q, const char* api, const SrcLoc& loc);
ASCEND_SIM_API void set_flag(HardEvent evt, int32_t id, const char* api, const SrcLoc& loc);
ASCEND_SIM_API void wait_flag(HardEvent evt, int32_t id, const char* api, const SrcLoc& loc);
ASCEND_SIM_API void pipe_barrier(pipe_t pipe, const SrcLoc& loc);
// Data movement (count and strided forms; `esize` is sizeof(T)).
ASCEND_SIM_API void copy_gm_to_ub(const TensorRef& dst, const void* gm, uint64_t count, uint32_t esize, DType dt,
                                  const SrcLoc& loc);
// InitGlobalMemory: `count` elements of `value` (esize bytes) into GM, as CANN does it — a
// vector duplicate in the Unified Buffer, then MTE3 copies out (charged as both).
ASCEND_SIM_API void gm_fill(void* gm, const void* value, uint64_t count, uint32_t esize, DType dt, const char* api,
                            const SrcLoc& loc);
ASCEND_SIM_API void copy_ub_to_gm(void* gm, const TensorRef& src, uint64_t count, uint32_t esize, DType dt,
                                  const SrcLoc& loc);
ASCEND_SIM_API void copy_ub_to_ub(const TensorRef& dst, const TensorRef& src, uint64_t count, uint32_t esize,
                                  const SrcLoc& loc);
ASCEND_SIM_API void copy_gm_to_ub_params(const TensorRef& dst, const void* gm, const DataCopyParams& p,
                                         const SrcLoc& loc);
ASCEND_SIM_API void copy_ub_to_gm_params(void* gm, const TensorRef& src, const DataCopyParams& p, uint32_t esize,
                                         DType dt, const SrcLoc& loc);
ASCEND_SIM_API void copy_ub_to_ub_params(const TensorRef& dst, const TensorRef& src, const DataCopyParams& p,
                                         const SrcLoc& loc);
ASCEND_SIM_API void pad_copy_in(const TensorRef& dst, const void* gm, uint32_t count, uint32_t len,
                                uint64_t src_stride_bytes, uint64_t dst_stride_blocks, bool is_pad, uint32_t left,
                                uint32_t right, const void* pad_value, uint32_t esize, const SrcLoc& loc);
ASCEND_SIM_API void pad_copy_out(void* gm, const TensorRef& src, uint32_t count, uint32_t len,
                                 uint64_t src_stride_blocks, uint64_t dst_stride_bytes, uint32_t esize, DType dt,
                                 const SrcLoc& loc);
ASCEND_SIM_API void set_atomic(int op);
// Cube path (cube_impl.h).
ASCEND_SIM_API void cube_nd2nz(const TensorRef& dst, const void* gm, uint32_t esize, const Nd2NzParams& p,
                               const SrcLoc& loc);
ASCEND_SIM_API void cube_load2d(const TensorRef& dst, const TensorRef* src, const void* gm, uint32_t esize,
                                const LoadData2DParams& p, const SrcLoc& loc);
ASCEND_SIM_API void cube_load2d_transpose_pairs(const TensorRef& dst, const TensorRef& src, uint32_t esize,
                                                const LoadData2dTransposeParams& p, const SrcLoc& loc);
struct Load3DArgs {
    uint32_t pad[4];  // left, right, top, bottom
    uint32_t l1H, l1W, channelSize, kExtension, mExtension, kStartPt, mStartPt;
    uint32_t strideW, strideH, filterW, filterH, dilW, dilH;
    bool transpose;
    const void* padValue;
};
ASCEND_SIM_API void cube_load3d(const TensorRef& dst, const TensorRef& src, uint32_t esize, const Load3DArgs& a,
                                const SrcLoc& loc);
ASCEND_SIM_API void cube_mmad(const TensorRef& dst, DType ct, const TensorRef& a, DType at, const TensorRef& b,
                              DType bt, const TensorRef* bias, DType biast, const MmadParams& p, const SrcLoc& loc);
ASCEND_SIM_API void cube_fixpipe(void* gm, const TensorRef* ldst, DType dt, const TensorRef& src, DType st,
                                 const TensorRef* quant, const FixpipeParamsV220& p, CO2Layout layout,
                                 const SrcLoc& loc);
ASCEND_SIM_API void cube_init_const(const TensorRef& dst, uint32_t esize, const void* value, uint32_t repeat,
                                    uint32_t block_num, uint32_t dst_gap, const SrcLoc& loc);
ASCEND_SIM_API void cross_core_set(int mode, int flag, pipe_t pipe, const SrcLoc& loc);
ASCEND_SIM_API void cross_core_wait(int mode, int flag, pipe_t pipe, const SrcLoc& loc);
ASCEND_SIM_API bool core_is_aic();
ASCEND_SIM_API bool mix_launch();
ASCEND_SIM_API void l2_touch(const void* gm, uint64_t bytes);
ASCEND_SIM_API uint64_t l1_load_cycles(CoreCtx& c, uint64_t bytes);

}  // namespace sim
}  // namespace AscendC

#if !defined(ASCEND_SIM_PREBUILT_RUNTIME)
#include "runtime_impl.h"
#endif
