// ascend_sim: the scalar unit's share of the kernel's own code, and byte accounting.
//
// Why: only AscendC calls used to cost cycles, so a kernel that walked raw pointers in a scalar
// loop, or spun in a busy loop, modelled as fast as a vector kernel. build.py compiles the
// kernel's translation unit with call-back instrumentation (INSTRUMENT_FLAGS):
//
// * -fsanitize-coverage=trace-pc calls __sanitizer_cov_trace_pc() at every basic block of the
//   kernel's code: each one costs kScalarBlockCycles on the S pipe;
// * -fsanitize=kernel-address with a call threshold of 0 calls __asan_{load,store}N_noabort(addr)
//   before every load and store the kernel's code makes through a pointer: one into global
//   memory costs gm_scalar_cycles, one into the core's on-chip memory ub_scalar_cycles, per
//   8-byte unit (the GetValue/SetValue costs), whatever the pointer's origin. A store into GM
//   also counts as a modelled write for byte accounting. Accesses elsewhere (the stack, constants,
//   heap memory of host-side helpers the kernel calls) are not modelled memory and cost nothing.
//
// The emulator's own functions carry ASCEND_SIM_NOINSTR (noinstr_begin.h), so none of this is
// charged for them. The hooks run on every instrumented access: they are kept small, and they
// do nothing outside a launch (tl_core is null on the host thread).
//
// Byte accounting: at the start of a launch every GmAlloc'd buffer is snapshotted; copies,
// SetValue, Fixpipe and charged scalar stores mark the bytes they write (gm_mark). At the end,
// a byte that changed but was never marked was written by something outside the model; the
// report's `unaccounted_gm_bytes` says how many, and the evaluator refuses to rank the result.
#pragma once

// System headers: std_headers.h (outside the no-instrumentation region).


namespace AscendC {
namespace sim {

// FNV-1a over `n` bytes: what verify_reads compares.
static inline uint64_t read_hash(uintptr_t a, uint64_t n) {
    const auto* p = reinterpret_cast<const uint8_t*>(a);
    uint64_t h = 1469598103934665603ull;
    for (uint64_t i = 0; i < n; ++i) h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

ASCEND_SIM_API void verify_reads(CoreCtx& c) {
    const uint32_t n = c.reads_pending;
    c.reads_pending = 0;
    for (uint32_t i = 0; i < n; ++i) {
        if (read_hash(c.read_addr[i], c.read_len[i]) != c.read_hash[i]) {
            fail("STRAY_ACCESS", c.last_api[0] ? c.last_api : "(kernel code)", c.last_loc,
                 "the kernel's own code changed %llu byte(s) at %p that it had read, outside its stack, the global "
                 "memory the host allocated and this core's local memory (the last AscendC call was %s at line %d): "
                 "a write through a wild or forged pointer — on the NPU such a store faults or clobbers another "
                 "tensor",
                 static_cast<unsigned long long>(c.read_len[i]), reinterpret_cast<void*>(c.read_addr[i]),
                 c.last_api[0] ? c.last_api : "(none)", c.last_loc.line);
        }
    }
}

ASCEND_SIM_API void gm_mark(const void* p, uint64_t bytes) {
    if (bytes == 0) return;
    Runtime& r = rt();
    const uintptr_t a = reinterpret_cast<uintptr_t>(p);
    for (auto& w : r.watches) {
        if (a >= w.lo && a < w.hi) {
            const uint64_t n = std::min<uint64_t>(bytes, w.hi - a);
            std::memset(w.touched.data() + (a - w.lo), 1, n);
            return;
        }
    }
}

// Called by the launcher before the cores start: snapshot every GmAlloc'd buffer.
ASCEND_SIM_API void accounting_begin() {
    Runtime& r = rt();

    r.watches.clear();
    r.unaccounted_bytes = 0;
    r.unaccounted_where.clear();
    std::shared_lock<std::shared_mutex> lk(r.gm_mu);
    for (const auto& kv : r.gm) {
        Runtime::GmWatch w;
        w.lo = kv.first;
        w.hi = kv.first + kv.second;
        const auto* base = reinterpret_cast<const uint8_t*>(kv.first);
        w.before.assign(base, base + kv.second);
        w.touched.assign(kv.second, 0);
        r.watches.push_back(std::move(w));
    }
}

// Called after every core has finished: count the bytes that changed without a modelled write.
ASCEND_SIM_API void accounting_end() {
    Runtime& r = rt();
    uint64_t total = 0;
    for (size_t i = 0; i < r.watches.size(); ++i) {
        const auto& w = r.watches[i];
        const auto* now = reinterpret_cast<const uint8_t*>(w.lo);
        const size_t n = w.before.size();
        for (size_t k = 0; k < n; ++k) {
            if (now[k] != w.before[k] && !w.touched[k]) {
                if (total == 0) {
                    char msg[200];
                    std::snprintf(msg, sizeof msg, "byte %zu of GmAlloc'd buffer #%zu (%zu bytes)", k, i, n);
                    r.unaccounted_where = msg;
                }
                ++total;
            }
        }
    }
    r.unaccounted_bytes = total;
    std::vector<Runtime::GmWatch>().swap(r.watches);
    if (total) {
        char msg[400];
        std::snprintf(msg, sizeof msg,
                      "%llu byte(s) of global memory changed without a modelled write (no DataCopy, SetValue, "
                      "Fixpipe or charged scalar store wrote them), first at %s; the result cannot be timed",
                      static_cast<unsigned long long>(total), r.unaccounted_where.c_str());
        record(false, "UNMODELLED_WRITE", "ICPU_RUN_KF", SrcLoc("host", 0), msg, false, -1);
    }
}

// This core thread's stack, read by thread_stack_bounds() before the thread's system-call filter
// is installed (pthread_getattr_np needs sched_getaffinity, which the filter refuses).
inline thread_local uintptr_t tl_stack_lo = 0;
inline thread_local uintptr_t tl_stack_hi = 0;

ASCEND_SIM_API void thread_stack_bounds() {
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
        void* addr = nullptr;
        size_t size = 0;
        if (pthread_attr_getstack(&attr, &addr, &size) == 0) {
            tl_stack_lo = reinterpret_cast<uintptr_t>(addr);
            tl_stack_hi = tl_stack_lo + size;
        }
        pthread_attr_destroy(&attr);
    }
    if (!tl_stack_lo) {
        std::fprintf(stderr, "[ascend_sim] internal error: cannot find the core thread's stack\n");
        std::_Exit(70);
    }
}

// Called on each core thread before the kernel runs: where its stack is.
ASCEND_SIM_API void scalar_core_begin(CoreCtx& c) {
    c.stack_lo = tl_stack_lo;
    c.stack_hi = tl_stack_hi;
}

inline bool kernel_allocated(const CoreCtx* c, uintptr_t a, size_t n) {
    for (uint32_t i = 0; i < c->kernel_alloc_count; ++i) {
        if (a >= c->kernel_alloc_lo[i] && a < c->kernel_alloc_hi[i] && n <= c->kernel_alloc_hi[i] - a) return true;
    }
    return false;
}

// Whether `bytes` at `a` lie in the core's local memory arena (UB, its address space past the
// physical end, then the cube memories): the one statement of that range, for kernel_object and
// scalar_access.
static inline bool in_local_arena(const CoreCtx* c, uintptr_t a, uint64_t bytes) {
    const uintptr_t lo = reinterpret_cast<uintptr_t>(c->ub.data());
    const uintptr_t hi = lo + c->ub.size();
    return a >= lo && a < hi && bytes <= hi - a;
}

// Whether `bytes` at `a` are the kernel's own memory: its stack frames, heap blocks allocated for
// it, its core's local memory or GM the host allocated (or this is not the kernel's code at all).
static inline bool kernel_object(const CoreCtx* c, uintptr_t a, uint64_t bytes) {
    if (!c || !c->in_kernel) return true;  // the host side, or the launcher's own objects
    if (a >= c->stack_lo && a < c->kernel_stack_top && bytes <= c->kernel_stack_top - a) return true;
    if (kernel_allocated(c, a, bytes)) return true;
    if (in_local_arena(c, a, bytes)) return true;
    for (const auto& w : rt().watches) {
        if (a >= w.lo && a < w.hi && bytes <= w.hi - a) return true;
    }
    return false;
}

#define ASCEND_SIM_STRAY_OBJECT_MSG                                                                           \
    "%s was given an object or output at %p (%llu bytes) outside the kernel's own memory (its stack, global " \
    "memory, its local memory): the emulator's records reached through a cast"

ASCEND_SIM_API void kernel_memory_at(uintptr_t a, uint64_t bytes, const char* api) {
    CoreCtx* c = tl_core;
    if (kernel_object(c, a, bytes)) return;
    fail("STRAY_ACCESS", api, c->last_loc, ASCEND_SIM_STRAY_OBJECT_MSG, api, reinterpret_cast<void*>(a),
         static_cast<unsigned long long>(bytes));
}

// The setters that call this are nothrow (so that they compile into the kernel's code as before),
// so a failure cannot unwind through them: the finding is recorded and the run ends here, its
// report written, as after a crash.
ASCEND_SIM_API uintptr_t kernel_owned(uintptr_t a, uint64_t bytes, const char* api) noexcept {
    CoreCtx* c = tl_core;
    if (kernel_object(c, a, bytes)) return 0;
    ++c->in_api;  // emulator code from here on
    char msg[512];
    std::snprintf(msg, sizeof msg, ASCEND_SIM_STRAY_OBJECT_MSG, api, reinterpret_cast<void*>(a),
                  static_cast<unsigned long long>(bytes));
    record(true, "STRAY_ACCESS", api, c->last_loc, msg, false);
    fatal_exit();
    std::_Exit(3);
}
#undef ASCEND_SIM_STRAY_OBJECT_MSG

#if defined(ASCEND_SIM_BUILDING_RUNTIME)
// A store by the kernel's own code outside the memory an AI core has: its stack frames, global
// memory the host allocated, its local memory. Everything else in this process (the emulator's
// clocks, counters and buffer records, other cores' stacks, the launcher's frames, TLS) is the
// judge's, so the store stops the run before it happens: a kernel's modelled time cannot depend
// on pointer arithmetic that reaches the emulator (docs/security.md, "Inside the process").
// Reads elsewhere are allowed (constants, the CPU twin's globals, emulator helpers the compiler
// instrumented), but what they read must not change before the next check (verify_reads): the
// compiler checks a read-modify-write at its read only.
[[noreturn]] static void stray_store(CoreCtx* c, uintptr_t a, size_t n) {
    fail("STRAY_ACCESS", c->last_api[0] ? c->last_api : "(kernel code)", c->last_loc,
         "the kernel's own code stored %zu byte(s) at %p, outside its stack, the global memory the host allocated "
         "and this core's local memory (the last AscendC call was %s at line %d): a wild or forged pointer — on the "
         "NPU such a store faults or clobbers another tensor",
         n, reinterpret_cast<void*>(a), c->last_api[0] ? c->last_api : "(none)", c->last_loc.line);
}

// The UB address space past the physical UB (runtime.h, CoreCtx::ub_space) is backed by memory
// only so that buffers can be placed there; the kernel's own loads and stores through a raw
// pointer fault there as on the NPU, as the AscendC calls do (view_raw).
// The access hooks are nothrow (called from the kernel's instrumented code), so the finding is
// recorded and the run ends here, its report written, as kernel_owned does.
[[noreturn]] static void past_ub_access(CoreCtx* c, uintptr_t rel, size_t n, bool write) {
    ++c->in_api;  // emulator code from here on
    char msg[512];
    std::snprintf(msg, sizeof msg,
                  "the kernel's own code %s %zu byte(s) at Unified Buffer byte %llu, past the end of the %u-byte UB "
                  "of %s (a buffer InitBuffer placed past the end, reached through a pointer): the NPU faults on such "
                  "an access",
                  write ? "stored" : "loaded", n, static_cast<unsigned long long>(rel), c->soc->ub_bytes,
                  c->soc->name);
    record(true, "UB_OVERFLOW", c->last_api[0] ? c->last_api : "(kernel code)", c->last_loc, msg, false);
    fatal_exit();
    std::_Exit(3);
}

static inline void note_read(CoreCtx* c, uintptr_t a, size_t n) {
    if (c->reads_pending == CoreCtx::kWatchedReads) verify_reads(*c);
    const uint32_t i = c->reads_pending++;
    c->read_addr[i] = a;
    c->read_len[i] = n;
    c->read_hash[i] = read_hash(a, n);
}

// One instrumented access of `n` bytes at `a` by the kernel's own code.
static inline void scalar_access(uintptr_t a, size_t n, bool write) {
    CoreCtx* c = tl_core;
    if (!c || c->in_api) return;
    if (c->reads_pending) verify_reads(*c);
    if (a >= c->stack_lo && a < c->kernel_stack_top && n <= c->kernel_stack_top - a) return;  // its locals
    const uint64_t units = (n + kScalarAccessBytes - 1) / kScalarAccessBytes;
    const uintptr_t ub = reinterpret_cast<uintptr_t>(c->ub.data());
    if (a + n > ub + c->soc->ub_bytes && a < ub + c->ub_space) past_ub_access(c, a - ub, n, write);
    if (in_local_arena(c, a, n)) {
        const uint64_t cyc = units * c->soc->ub_scalar_cycles;
        c->s_now += cyc;
        c->pipe_busy[static_cast<int>(Pipe::S)] += cyc;
        c->scalar_ub_access += units;
        if (write) std::memset(c->ub_init.data() + (a - ub), 1, n);
        return;
    }
    Runtime& r = rt();
    for (auto& w : r.watches) {
        if (a >= w.lo && a < w.hi && n <= w.hi - a) {
            const uint64_t cyc = units * c->soc->gm_scalar_cycles;
            c->s_now += cyc;
            c->pipe_busy[static_cast<int>(Pipe::S)] += cyc;
            c->scalar_gm_access += units;
            if (write) {
                c->gm_write += n;
                std::memset(w.touched.data() + (a - w.lo), 1, n);
            } else {
                c->gm_read += n;
            }
            return;
        }
    }
    // Not modelled memory: no charge. Heap blocks allocated for the kernel are its own (a freed one
    // changes under it), the null page faults as on the NPU; elsewhere a store is refused and a
    // read is watched.
    if (a < 4096 || kernel_allocated(c, a, n)) return;
    if (write) stray_store(c, a, n);
    note_read(c, a, n);
}
#endif

}  // namespace sim
}  // namespace AscendC

#if defined(ASCEND_SIM_BUILDING_RUNTIME)
// The global allocation functions, replaced so that a block allocated while the kernel's own code
// runs (by a host-side helper it calls: ge::Shape's vector) is recorded as the kernel's: its code
// may store there, and nowhere else on the heap.
namespace AscendC {
namespace sim {
static void* kernel_new(size_t n) {
    void* p = std::malloc(n ? n : 1);
    if (!p) throw std::bad_alloc();
    CoreCtx* c = tl_core;
    if (c && c->in_kernel && !c->in_api && c->kernel_alloc_count < CoreCtx::kKernelAllocs) {
        const uint32_t i = c->kernel_alloc_count++;
        c->kernel_alloc_lo[i] = reinterpret_cast<uintptr_t>(p);
        c->kernel_alloc_hi[i] = reinterpret_cast<uintptr_t>(p) + n;
    }
    return p;
}
// A block that is not the kernel's, freed while the kernel runs and no API call is open, is left
// allocated: the emulator frees its own memory there too (a helper without an API scope), and a
// kernel that frees the emulator's memory must not get it back from the allocator to write into.
// A block that is not the kernel's, freed while the kernel runs and no API call is open, is left
// allocated: the emulator frees its own memory there too (a helper without an API scope), and a
// kernel that frees the emulator's memory must not get it back from the allocator to write into.
static void kernel_delete(void* p) noexcept {
    CoreCtx* c = tl_core;
    if (c && p && c->in_kernel && !c->in_api) {
        uint32_t i = 0;
        while (i < c->kernel_alloc_count && c->kernel_alloc_lo[i] != reinterpret_cast<uintptr_t>(p)) ++i;
        if (i == c->kernel_alloc_count) return;
        const uint32_t last = --c->kernel_alloc_count;
        c->kernel_alloc_lo[i] = c->kernel_alloc_lo[last];
        c->kernel_alloc_hi[i] = c->kernel_alloc_hi[last];
    }
    std::free(p);
}
}  // namespace sim
}  // namespace AscendC
void* operator new(size_t n) { return AscendC::sim::kernel_new(n); }
void* operator new[](size_t n) { return AscendC::sim::kernel_new(n); }
void operator delete(void* p) noexcept { AscendC::sim::kernel_delete(p); }
void operator delete[](void* p) noexcept { AscendC::sim::kernel_delete(p); }
void operator delete(void* p, size_t) noexcept { AscendC::sim::kernel_delete(p); }
void operator delete[](void* p, size_t) noexcept { AscendC::sim::kernel_delete(p); }

// The instrumentation call-backs (strong definitions, in the prebuilt runtime object only: a
// second definition anywhere is a link error, so a kernel cannot replace them).
extern "C" {
void __sanitizer_cov_trace_pc() {
    AscendC::sim::CoreCtx* c = AscendC::sim::tl_core;
    if (c && !c->in_api) {
        if (c->reads_pending) AscendC::sim::verify_reads(*c);
        c->s_now += AscendC::sim::kScalarBlockCycles;
        c->pipe_busy[static_cast<int>(AscendC::sim::Pipe::S)] += AscendC::sim::kScalarBlockCycles;
        c->scalar_blocks++;
    }
}
#define ASCEND_SIM_ACCESS_HOOKS(N)                                                                   \
    void __asan_load##N##_noabort(uintptr_t a) { AscendC::sim::scalar_access(a, N, false); }         \
    void __asan_store##N##_noabort(uintptr_t a) { AscendC::sim::scalar_access(a, N, true); }         \
    void __asan_load##N(uintptr_t a) { AscendC::sim::scalar_access(a, N, false); }                   \
    void __asan_store##N(uintptr_t a) { AscendC::sim::scalar_access(a, N, true); }
ASCEND_SIM_ACCESS_HOOKS(1)
ASCEND_SIM_ACCESS_HOOKS(2)
ASCEND_SIM_ACCESS_HOOKS(4)
ASCEND_SIM_ACCESS_HOOKS(8)
ASCEND_SIM_ACCESS_HOOKS(16)
#undef ASCEND_SIM_ACCESS_HOOKS
void __asan_loadN_noabort(uintptr_t a, size_t n) { AscendC::sim::scalar_access(a, n, false); }
void __asan_storeN_noabort(uintptr_t a, size_t n) { AscendC::sim::scalar_access(a, n, true); }
void __asan_loadN(uintptr_t a, size_t n) { AscendC::sim::scalar_access(a, n, false); }
void __asan_storeN(uintptr_t a, size_t n) { AscendC::sim::scalar_access(a, n, true); }
void __asan_handle_no_return() {}
// Dynamic initialisation in an instrumented TU calls these. Kernel files may have none (the
// cpu-sim toolchain refuses kernel.o with init sections before linking); a single-file sample's
// host part (<iostream>) may.
void __asan_before_dynamic_init(const char*) {}
void __asan_after_dynamic_init() {}
}
#endif
