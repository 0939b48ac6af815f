// ascend_sim: out-of-line part of the runtime — configuration, findings, the JSON report, the
// global-memory registry, SyncAll's barrier, crash handling and the kernel launcher.
//
// Header-only builds include this file from runtime.h with every function `inline`. A build that
// links the prebuilt runtime object (ASCEND_SIM_PREBUILT_RUNTIME, see build.py) skips it, which
// keeps each kernel compile small; runtime_lib.cpp compiles it once with external linkage.
#pragma once

#include "std_headers.h"
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <thread>

#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <shared_mutex>
#include <unordered_set>

#include "runtime.h"
#include "int_division.h"

namespace AscendC {
namespace sim {

struct LaunchSummary {
    std::string kernel;
    int block_dim;
    uint64_t total_cycles;
    double est_us;
};

struct Runtime {
    std::recursive_mutex mu;  // findings + report
    std::vector<Finding> findings;
    std::set<std::string> dedupe;
    bool any_error = false;
    // global memory registry (GmAlloc'd ranges)
    std::shared_mutex gm_mu;
    std::map<uintptr_t, size_t> gm;
    // byte accounting of the current launch: every GmAlloc'd buffer, its contents before the
    // launch, and which bytes a modelled path wrote (scalar_hooks.h, gm_mark)
    struct GmWatch {
        uintptr_t lo = 0;
        uintptr_t hi = 0;
        std::vector<uint8_t> before;
        std::vector<uint8_t> touched;
    };
    std::vector<GmWatch> watches;
    uint64_t unaccounted_bytes = 0;   // last launch: bytes changed without a modelled write
    std::string unaccounted_where;    // the first such byte, described
    // configuration
    bool configured = false;
    const SocProfile* soc = nullptr;
    std::string report_path;
    double timeout_s = 60.0;
    size_t timeline_limit = 20000;
    KernelMode mode = KernelMode::MIX_MODE;
    int64_t tiling_key = 1;
    // current launch
    std::string kernel;
    int block_dim = 0;
    int phys_cores = 1;
    std::vector<std::unique_ptr<CoreCtx>> cores;
    std::atomic<bool> abort{false};
    std::atomic<bool> launch_active{false};
    uint64_t total_cycles = 0;
    uint64_t core_bound_cycles = 0;
    uint64_t hbm_bound_cycles = 0;
    uint64_t gm_bytes = 0;
    std::vector<LaunchSummary> launches;
    // SyncAll barrier
    std::mutex bar_mu;
    std::condition_variable bar_cv;
    struct Barrier {
        int participants = 0;
        int arrived = 0;
        int exited = 0;
        uint64_t gen = 0;
        uint64_t max_time = 0;
        uint64_t release_time = 0;
        bool deadlock = false;
        bool deadlock_reported = false;
    };
    // [0]: SyncAll<true> (the vector cores; every core of a non-MIX launch); [1]: SyncAll<false>
    // of a MIX launch (every AIC and AIV)
    Barrier bars[2];
    bool waves = false;
    std::atomic<bool> fatal_in_progress{false};
    // L2 model for cube loads: the GM lines (512 B) read into L1 during this launch
    std::mutex l2_mu;
    std::unordered_set<uintptr_t> l2_lines;
    uint64_t l2_bound_cycles = 0;
    uint64_t cube_macs = 0;
    bool mode_set = false;
    // MIX launches (910B): each block is 1 AIC + 2 AIV, as 3 emulated cores
    bool mix = false;
    int units = 1;  // emulated cores per block
    std::mutex xc_mu;
    std::condition_variable xc_cv;
    struct XFlags {
        std::deque<uint64_t> to_aiv[2][16];    // set by the AIC, one queue per AIV
        std::deque<uint64_t> to_aic[2][16];    // set by AIV 0 / AIV 1
        std::deque<uint64_t> m1[2][16];        // mode-1 sets of AIV 0 / AIV 1 until both have set
    };
    std::map<int, XFlags> xc;
    std::vector<uint8_t> unit_done;
    // mode-0 sets per core (kind 0: AICs by block, 1: AIVs by logical index) until every core of
    // the kind has set; then each core's own counter of the flag goes up by one
    std::map<int, std::deque<uint64_t>> m0[2][16];
    bool xc_m01 = false;      // this launch used mode 0 or 1
    int xc_running = 0;       // emulated cores running a block (MIX)
    int xc_blocked = 0;       // of those, waiting in CrossCoreWaitFlag
    uint64_t xc_progress = 0; // bumped by every set, core start and core end
};

// Internal helpers used before their definition below.
ASCEND_SIM_API Runtime& rt();
ASCEND_SIM_API void configure();
ASCEND_SIM_API double cycles_to_us(uint64_t cycles);
ASCEND_SIM_API std::string build_report();
ASCEND_SIM_API void accounting_begin();
ASCEND_SIM_API bool install_kernel_seccomp();
ASCEND_SIM_API void accounting_end();
ASCEND_SIM_API void scalar_core_begin(CoreCtx& c);
ASCEND_SIM_API void thread_stack_bounds();
ASCEND_SIM_API void write_report();
ASCEND_SIM_API void record(bool error, const char* code, const char* api, const SrcLoc& loc, const std::string& msg,
                           bool dedupe, int core_override = -2);
ASCEND_SIM_API void fatal_exit();
ASCEND_SIM_API bool gm_contains(const void* p, uint64_t bytes, std::string* why);
ASCEND_SIM_API void barrier_core_exit(bool mix_aic);
ASCEND_SIM_API void l2_touch(const void* gm, uint64_t bytes);
ASCEND_SIM_API uint64_t l1_load_cycles(CoreCtx& c, uint64_t bytes);

ASCEND_SIM_API Runtime& rt() {
    static Runtime* r = new Runtime();  // never destroyed: usable from signal handlers and atexit
    return *r;
}

ASCEND_SIM_API uint64_t core_end_time(const CoreCtx& c) {
    uint64_t t = c.s_now;
    for (int p = 0; p < kPipeCount; ++p) t = std::max(t, c.pipe_free[p]);
    return t;
}

// Every API entry point calls this: it stops a core once another core has failed and
// remembers the call site for crash messages.
ASCEND_SIM_API CoreCtx& enter(const char* api, const SrcLoc& loc) {
    CoreCtx* c = tl_core;
    if (!c) {
        record(true, "BAD_PARAM", api, loc,
               "AscendC kernel API called outside a kernel launch (run the kernel with ICPU_RUN_KF)", false);
        fatal_exit();
        std::_Exit(3);
    }
    if (rt().abort.load(std::memory_order_relaxed)) throw SimAbort{};
    c->last_api = api;
    c->last_loc = loc;
    return *c;
}

// ------------------------------------------------------------------------------------------
// Cost model: charge one instruction to a pipe
// ------------------------------------------------------------------------------------------

// Issues an instruction from the scalar unit into `pipe`: it starts once the pipe is free, the
// scalar unit has issued it, and every buffer it reads has been written (and every buffer it
// writes has been read) — the ordering CANN's auto-sync and queues provide. Returns its end.
ASCEND_SIM_API uint64_t charge(CoreCtx& c, Pipe pipe, uint64_t cycles, const char* op, const SrcLoc& loc,
                       std::initializer_list<Access> accesses, uint32_t issue_extra) {
    const SocProfile& s = *c.soc;
    c.s_now += s.issue_cycles + issue_extra;
    const int p = static_cast<int>(pipe);
    uint64_t start = std::max(c.s_now, c.pipe_free[p]);
    for (const Access& a : accesses) {
        if (!a.blk) continue;
        start = std::max(start, a.blk->write_end);
        if (a.write) start = std::max(start, a.blk->read_end);
    }
    const uint64_t end = start + cycles;
    c.pipe_free[p] = end;
    c.pipe_busy[p] += cycles;
    for (const Access& a : accesses) {
        if (!a.blk) continue;
        if (a.write) {
            a.blk->write_end = std::max(a.blk->write_end, end);
        } else {
            a.blk->read_end = std::max(a.blk->read_end, end);
        }
    }
    if (c.timeline.size() < c.timeline_cap) {
        c.timeline.push_back(TimelineEvent{c.block_idx, static_cast<uint8_t>(p), op, start, end, loc.line});
    } else {
        c.timeline_truncated = true;
    }
    return end;
}

// Scalar-unit work (GetValue/SetValue, queue bookkeeping): advances the scalar clock only.
ASCEND_SIM_API void charge_scalar(CoreCtx& c, uint64_t cycles, BlockInfo* wait_for, bool write) {
    if (wait_for) {
        c.s_now = std::max(c.s_now, wait_for->write_end);
        if (write) c.s_now = std::max(c.s_now, wait_for->read_end);
    }
    c.s_now += cycles;
    c.pipe_busy[static_cast<int>(Pipe::S)] += cycles;
    if (wait_for) {
        if (write) {
            wait_for->write_end = std::max(wait_for->write_end, c.s_now);
        } else {
            wait_for->read_end = std::max(wait_for->read_end, c.s_now);
        }
    }
}

// ------------------------------------------------------------------------------------------
// Configuration from the environment (read once, at the first launch or GmAlloc)
// ------------------------------------------------------------------------------------------
ASCEND_SIM_API void configure() {
    Runtime& r = rt();
    if (r.configured) return;
    r.configured = true;
    const char* soc = std::getenv("ASCEND_SIM_SOC");
    r.soc = find_soc(soc && *soc ? soc : kDefaultSoc);
    if (!r.soc) {
        std::fprintf(stderr, "[ERROR][Host][ascend_sim][configure] BAD_PARAM: unknown ASCEND_SIM_SOC '%s'; supported:", soc);
        for (const auto& p : kSocProfiles) std::fprintf(stderr, " %s", p.name);
        std::fprintf(stderr, "\n");
        std::exit(3);
    }
    if (const char* p = std::getenv("ASCEND_SIM_REPORT")) r.report_path = p;
    if (const char* t = std::getenv("ASCEND_SIM_TIMEOUT_S")) {
        const double v = std::atof(t);
        if (v > 0) r.timeout_s = v;
    }
    if (const char* t = std::getenv("ASCEND_SIM_TIMELINE_LIMIT")) {
        const long v = std::atol(t);
        if (v >= 0) r.timeline_limit = static_cast<size_t>(v);
    }
}

// ------------------------------------------------------------------------------------------
// JSON report
// ------------------------------------------------------------------------------------------
ASCEND_SIM_API void json_str(std::string& out, const std::string& s) {
    out.push_back('"');
    for (unsigned char c : s) {
        switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\t': out += "\\t"; break;
            default:
                if (c < 0x20) {
                    char buf[8];
                    std::snprintf(buf, sizeof buf, "\\u%04x", c);
                    out += buf;
                } else {
                    out.push_back(static_cast<char>(c));
                }
        }
    }
    out.push_back('"');
}

ASCEND_SIM_API double cycles_to_us(uint64_t cycles) {
    const SocProfile* s = rt().soc ? rt().soc : find_soc(kDefaultSoc);
    return static_cast<double>(cycles) / s->freq_mhz;
}

ASCEND_SIM_API std::string build_report() {
    Runtime& r = rt();
    std::string o;
    o.reserve(1 << 16);
    char buf[512];
    o += "{\"soc\": ";
    json_str(o, r.soc ? r.soc->name : kDefaultSoc);
    o += ", \"kernel\": ";
    json_str(o, r.kernel);
    std::snprintf(buf, sizeof buf, ", \"block_dim\": %d, \"total_cycles\": %llu, \"est_us\": %.3f", r.block_dim,
                  static_cast<unsigned long long>(r.total_cycles), cycles_to_us(r.total_cycles));
    o += buf;
    std::snprintf(buf, sizeof buf,
                  ", \"core_bound_cycles\": %llu, \"hbm_bound_cycles\": %llu, \"gm_bytes\": %llu, \"freq_mhz\": %.1f",
                  static_cast<unsigned long long>(r.core_bound_cycles),
                  static_cast<unsigned long long>(r.hbm_bound_cycles), static_cast<unsigned long long>(r.gm_bytes),
                  r.soc ? r.soc->freq_mhz : 0.0);
    o += buf;
    std::snprintf(buf, sizeof buf, ", \"l2_bound_cycles\": %llu, \"cube_macs\": %llu, \"unaccounted_gm_bytes\": %llu",
                  static_cast<unsigned long long>(r.l2_bound_cycles), static_cast<unsigned long long>(r.cube_macs),
                  static_cast<unsigned long long>(r.unaccounted_bytes));
    o += buf;
    o += ", \"cores\": [";
    bool first = true;
    for (const auto& cp : r.cores) {
        if (!cp) continue;
        const CoreCtx& c = *cp;
        if (!first) o += ", ";
        first = false;
        std::snprintf(buf, sizeof buf, "{\"block_idx\": %d, \"phys_core\": %d, \"cycles\": %llu, \"pipes\": {", c.block_idx,
                      c.phys_core, static_cast<unsigned long long>(core_end_time(c)));
        o += buf;
        for (int p = 0; p < kPipeCount; ++p) {
            std::snprintf(buf, sizeof buf, "%s\"%s\": %llu", p ? ", " : "", pipe_name(static_cast<Pipe>(p)),
                          static_cast<unsigned long long>(c.pipe_busy[p]));
            o += buf;
        }
        std::snprintf(buf, sizeof buf,
                      "}, \"gm_read_bytes\": %llu, \"gm_write_bytes\": %llu, \"l1_load_bytes\": %llu, \"core_type\": \"%s\", "
                      "\"scalar\": {\"blocks\": %llu, \"ub_accesses\": %llu, \"gm_accesses\": %llu}}",
                      static_cast<unsigned long long>(c.gm_read), static_cast<unsigned long long>(c.gm_write),
                      static_cast<unsigned long long>(c.l1_read), c.is_aic ? "AIC" : "AIV",
                      static_cast<unsigned long long>(c.scalar_blocks),
                      static_cast<unsigned long long>(c.scalar_ub_access),
                      static_cast<unsigned long long>(c.scalar_gm_access));
        o += buf;
    }
    o += "], \"timeline\": [";
    first = true;
    bool truncated = false;
    for (const auto& cp : r.cores) {
        if (!cp || !cp->finished.load()) continue;
        truncated = truncated || cp->timeline_truncated;
        for (const auto& e : cp->timeline) {
            if (!first) o += ", ";
            first = false;
            o += "{\"core\": ";
            o += std::to_string(e.core);
            o += ", \"pipe\": \"";
            o += pipe_name(static_cast<Pipe>(e.pipe));
            o += "\", \"op\": ";
            json_str(o, e.op);
            std::snprintf(buf, sizeof buf, ", \"start\": %llu, \"end\": %llu, \"line\": %d}",
                          static_cast<unsigned long long>(e.start), static_cast<unsigned long long>(e.end), e.line);
            o += buf;
        }
    }
    o += "], \"timeline_truncated\": ";
    o += truncated ? "true" : "false";
    o += ", \"findings\": [";
    {
        std::lock_guard<std::recursive_mutex> lk(r.mu);
        first = true;
        for (const auto& f : r.findings) {
            if (!first) o += ", ";
            first = false;
            o += "{\"severity\": ";
            o += f.error ? "\"error\"" : "\"warning\"";
            o += ", \"code\": ";
            json_str(o, f.code);
            o += ", \"message\": ";
            json_str(o, f.message);
            o += ", \"file\": ";
            json_str(o, f.file);
            std::snprintf(buf, sizeof buf, ", \"line\": %d, \"core\": %d, \"api\": ", f.line, f.core);
            o += buf;
            json_str(o, f.api);
            o += "}";
        }
    }
    o += "], \"launches\": [";
    first = true;
    for (const auto& l : r.launches) {
        if (!first) o += ", ";
        first = false;
        o += "{\"kernel\": ";
        json_str(o, l.kernel);
        std::snprintf(buf, sizeof buf, ", \"block_dim\": %d, \"total_cycles\": %llu, \"est_us\": %.3f}", l.block_dim,
                      static_cast<unsigned long long>(l.total_cycles), l.est_us);
        o += buf;
    }
    o += "]}\n";
    return o;
}

// Writes the report if ASCEND_SIM_REPORT is set: to a temporary name, then renamed, so a
// reader never sees half a file.
ASCEND_SIM_API void write_report() {
    Runtime& r = rt();
    if (!r.configured) configure();
    if (r.report_path.empty()) return;
    const std::string text = build_report();
    const std::string tmp = r.report_path + ".tmp." + std::to_string(getpid());
    FILE* f = std::fopen(tmp.c_str(), "w");
    if (!f) {
        std::fprintf(stderr, "[WARNING][Host][ascend_sim] cannot write report %s\n", r.report_path.c_str());
        return;
    }
    std::fwrite(text.data(), 1, text.size(), f);
    std::fclose(f);
    std::rename(tmp.c_str(), r.report_path.c_str());
}

// ------------------------------------------------------------------------------------------
// Findings
// ------------------------------------------------------------------------------------------
ASCEND_SIM_API std::string vformat(const char* fmt, va_list ap) {
    char buf[1024];
    std::vsnprintf(buf, sizeof buf, fmt, ap);
    return buf;
}

ASCEND_SIM_API void record(bool error, const char* code, const char* api, const SrcLoc& loc, const std::string& msg,
                   bool dedupe, int core_override) {
    const ApiScope api_scope_;  // emulator code, whoever calls it (its allocations are the emulator's)
    Runtime& r = rt();
    CoreCtx* c = tl_core;
    const int core = core_override != -2 ? core_override : (c ? c->block_idx : -1);
    std::lock_guard<std::recursive_mutex> lk(r.mu);
    if (dedupe) {
        std::string key = std::string(code) + "|" + (loc.file ? loc.file : "") + "|" + std::to_string(loc.line);
        if (!r.dedupe.insert(key).second) return;
    }
    if (error) r.any_error = true;
    r.findings.push_back(Finding{error, code, msg, loc.file ? loc.file : "", api ? api : "", loc.line, core});
    char corebuf[32];
    if (core >= 0) {
        std::snprintf(corebuf, sizeof corebuf, "Core_%d", core);
    } else {
        std::snprintf(corebuf, sizeof corebuf, "Host");
    }
    std::fprintf(stderr, "[%s][%s][%s:%d][%s] %s: %s\n", error ? "ERROR" : "WARNING", corebuf,
                 loc.file ? loc.file : "?", loc.line, api ? api : "", code, msg.c_str());
    std::fflush(stderr);
}

// Reports an error and stops: inside a core the kernel unwinds (SimAbort) and the launcher
// exits with status 3 after writing the report; on the host it exits at once.

[[noreturn]] ASCEND_SIM_API void fail(const char* code, const char* api, const SrcLoc& loc, const char* fmt, ...) {
    if (tl_core) ++tl_core->in_api;  // emulator code from here on (it unwinds the kernel or exits)
    va_list ap;
    va_start(ap, fmt);
    std::string msg = vformat(fmt, ap);
    va_end(ap);
    Runtime& r = rt();
    if (tl_core && r.abort.load()) throw SimAbort{};  // a sibling core already failed
    record(true, code, api, loc, msg, false);
    if (tl_core) {
        r.abort.store(true);
        {
            std::lock_guard<std::mutex> lk(r.bar_mu);
        }
        r.bar_cv.notify_all();
        throw SimAbort{};
    }
    fatal_exit();
    std::_Exit(3);
}

// Reports a warning once per (code, file, line).

ASCEND_SIM_API void warn(const char* code, const char* api, const SrcLoc& loc, const char* fmt, ...) {
    const ApiScope api_scope_;
    va_list ap;
    va_start(ap, fmt);
    std::string msg = vformat(fmt, ap);
    va_end(ap);
    record(false, code, api, loc, msg, true);
}

// The thread that owns the process's last words: it records the finding and writes the report;
// every other thread that fails meanwhile waits for it instead of ending the process first (the
// verdict would lose the finding that explains it).
ASCEND_SIM_API bool& fatal_owner() {
    static thread_local bool owner = false;  // constant-initialised: safe to touch in a signal handler
    return owner;
}

ASCEND_SIM_API void wait_for_fatal_owner() {
    if (fatal_owner()) return;  // a fault inside the owner's own reporting: end now
    struct timespec ts{0, 20 * 1000 * 1000};
    for (int i = 0; i < 250; ++i) nanosleep(&ts, nullptr);  // the owner ends the process well before 5 s
}

ASCEND_SIM_API void fatal_exit() {
    Runtime& r = rt();
    if (r.fatal_in_progress.exchange(true)) {
        wait_for_fatal_owner();
        return;
    }
    fatal_owner() = true;
    write_report();
    std::fflush(stderr);
    std::fflush(stdout);
    std::_Exit(3);
}

// ------------------------------------------------------------------------------------------
// Global memory registry (GmAlloc'd ranges define what kernels may touch)
// ------------------------------------------------------------------------------------------
ASCEND_SIM_API size_t page_size() {
    static const size_t ps = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    return ps;
}

ASCEND_SIM_API void* gm_alloc(size_t size) {
    configure();
    const size_t ps = page_size();
    const size_t body = (size + ps - 1) / ps * ps;
    const size_t total = body + 2 * ps;  // guard page on each side
    void* base = mmap(nullptr, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED) {
        record(true, "BAD_PARAM", "GmAlloc", SrcLoc("host", 0), "GmAlloc(" + std::to_string(size) + ") failed: out of memory",
               false);
        fatal_exit();
        std::_Exit(3);
    }
    auto* p = static_cast<uint8_t*>(base);
    mprotect(p, ps, PROT_NONE);
    mprotect(p + ps + body, ps, PROT_NONE);
    uint8_t* user = p + ps;
    std::unique_lock<std::shared_mutex> lk(rt().gm_mu);
    rt().gm[reinterpret_cast<uintptr_t>(user)] = size;
    return user;
}

ASCEND_SIM_API void gm_free(void* ptr, const SrcLoc& loc) {
    Runtime& r = rt();
    size_t size = 0;
    {
        std::unique_lock<std::shared_mutex> lk(r.gm_mu);
        auto it = r.gm.find(reinterpret_cast<uintptr_t>(ptr));
        if (it == r.gm.end()) {
            lk.unlock();
            char msg[160];
            std::snprintf(msg, sizeof msg, "GmFree(%p): pointer was not returned by GmAlloc or was already freed", ptr);
            record(true, "BAD_PARAM", "GmFree", loc, msg, false);
            fatal_exit();
            std::_Exit(3);
        }
        size = it->second;
        r.gm.erase(it);
    }
    const size_t ps = page_size();
    const size_t body = (size + ps - 1) / ps * ps;
    munmap(static_cast<uint8_t*>(ptr) - ps, body + 2 * ps);
}

// Is [p, p+bytes) inside one GmAlloc'd buffer? If not, describe the nearest buffer.
ASCEND_SIM_API bool gm_contains(const void* p, uint64_t bytes, std::string* why) {
    Runtime& r = rt();
    const uintptr_t a = reinterpret_cast<uintptr_t>(p);
    std::shared_lock<std::shared_mutex> lk(r.gm_mu);
    auto it = r.gm.upper_bound(a);
    if (it != r.gm.begin()) {
        --it;
        const uintptr_t base = it->first;
        const uint64_t size = it->second;
        if (a >= base && a + bytes <= base + size) return true;
        if (why) {
            char buf[256];
            if (a < base + size) {
                std::snprintf(buf, sizeof buf,
                              "[%p, +%llu bytes) runs %llu bytes past the end of the GmAlloc'd buffer %p (%llu bytes)", p,
                              static_cast<unsigned long long>(bytes),
                              static_cast<unsigned long long>(a + bytes - (base + size)), reinterpret_cast<void*>(base),
                              static_cast<unsigned long long>(size));
            } else {
                std::snprintf(buf, sizeof buf,
                              "[%p, +%llu bytes) starts %llu bytes after the end of the GmAlloc'd buffer %p (%llu bytes)", p,
                              static_cast<unsigned long long>(bytes), static_cast<unsigned long long>(a - (base + size)),
                              reinterpret_cast<void*>(base), static_cast<unsigned long long>(size));
            }
            *why = buf;
        }
        return false;
    }
    if (why) {
        char buf[160];
        std::snprintf(buf, sizeof buf, "[%p, +%llu bytes) is not inside any GmAlloc'd buffer", p,
                      static_cast<unsigned long long>(bytes));
        *why = buf;
    }
    return false;
}

// Whether an access of [p, p + bytes) ends inside the `granule`-byte block that holds its buffer's
// last byte. The NPU's allocators hand out whole blocks (aclrtMalloc aligns to 32 bytes, torch_npu's
// caching allocator, which holds every NPUKernelBench tensor, rounds sizes up to 512), so a DataCopy
// that moves a short tensor as one whole block is what public kernels do (NPUKernelBench's
// one-element inputs and outputs; Catlass's bias rows read as 512-byte bursts) and touches only the
// buffer's own padding there. GmAlloc maps whole pages, so the padding is the buffer's memory here
// too; the harness reads back only the tensor's bytes.
constexpr uint64_t kGmReadGranule = 512;   // a read may end anywhere in the allocator's last block
constexpr uint64_t kGmWriteGranule = 32;   // a write only in the last 32-byte block (with a warning)

ASCEND_SIM_API bool gm_in_last_block(const void* p, uint64_t bytes, uint64_t granule) {
    Runtime& r = rt();
    const uintptr_t a = reinterpret_cast<uintptr_t>(p);
    std::shared_lock<std::shared_mutex> lk(r.gm_mu);
    auto it = r.gm.upper_bound(a);
    if (it == r.gm.begin()) return false;
    --it;
    const uint64_t padded = (it->second + granule - 1) / granule * granule;
    return a >= it->first && a < it->first + it->second && a + bytes <= it->first + padded;
}

ASCEND_SIM_API void check_gm_exact(const void* p, uint64_t bytes, const char* api, const SrcLoc& loc) {
    std::string why;
    if (bytes != 0 && !gm_contains(p, bytes, &why)) {
        fail("GM_OOB", api, loc, "global-memory read outside what the host allocated: %s", why.c_str());
    }
}

ASCEND_SIM_API void check_gm(const void* p, uint64_t bytes, bool write, const char* api, const SrcLoc& loc) {
    if (bytes == 0) return;
    std::string why;
    if (gm_contains(p, bytes, &why)) return;
    if (!gm_in_last_block(p, bytes, write ? kGmWriteGranule : kGmReadGranule)) {
        fail("GM_OOB", api, loc, "global-memory %s outside what the host allocated: %s", write ? "write" : "read",
             why.c_str());
    }
    if (write) {  // past the tensor's logical end, inside its last 32-byte block
        warn("GM_PAD_WRITE", api, loc,
             "global-memory write past the end of what the host allocated, into the padding of its last 32-byte "
             "block: %s. The buffer's own allocation ends there only when it was allocated alone; where outputs "
             "are packed or the tensor is a view, this clobbers the neighbouring tensor on the NPU",
             why.c_str());
    }
}

// ------------------------------------------------------------------------------------------
// SyncAll barrier (all blocks run concurrently when blockDim <= physical cores)
// ------------------------------------------------------------------------------------------
ASCEND_SIM_API void sync_all(CoreCtx& c, const SrcLoc& loc, const char* api, bool all) {
    Runtime& r = rt();
    if (r.mix && c.is_aic && !all) {
        fail("UNSUPPORTED", api, loc,
             "SyncAll<true> (isAIVOnly, the default) on the cube core (AIC) of a MIX kernel: it synchronises the "
             "vector cores only; use SyncAll<false>() for every AIC and AIV, or CrossCoreSetFlag / "
             "CrossCoreWaitFlag");
    }
    if (r.waves) {
        fail("DEADLOCK", api, loc,
             "SyncAll with blockDim %d > %d physical %s cores of %s: blocks run in waves, so the first wave "
             "would wait forever for blocks that cannot start",
             r.block_dim, r.phys_cores, r.mix ? "AI Core (1 AIC + 2 AIV)" : (c.is_aic ? "cube" : "vector"),
             c.soc->name);
    }
    Runtime::Barrier& B = r.bars[r.mix && all ? 1 : 0];
    std::unique_lock<std::mutex> lk(r.bar_mu);
    if (r.abort.load()) throw SimAbort{};
    const uint64_t t = core_end_time(c);
    B.max_time = std::max(B.max_time, t);
    B.arrived++;
    const uint64_t gen = B.gen;
    if (B.arrived + B.exited == B.participants) {
        if (B.exited > 0) {
            B.deadlock = true;
            r.bar_cv.notify_all();
        } else {
            B.release_time = B.max_time + c.soc->sync_all_cycles;
            B.gen++;
            B.arrived = 0;
            B.max_time = 0;
            r.bar_cv.notify_all();
        }
    } else {
        r.bar_cv.wait(lk, [&] { return B.gen != gen || r.abort.load() || B.deadlock; });
    }
    if (B.deadlock && B.gen == gen) {
        const bool first = !B.deadlock_reported;
        B.deadlock_reported = true;
        const int exited = B.exited;
        lk.unlock();
        if (!first) throw SimAbort{};
        fail("DEADLOCK", api, loc,
             "SyncAll can never complete: %d of %d cores finished the kernel without reaching it, so the cores "
             "waiting here would hang forever",
             exited, B.participants);
    }
    if (r.abort.load()) throw SimAbort{};
    const uint64_t rel = B.release_time;
    lk.unlock();
    for (int p = 0; p < kPipeCount; ++p) c.pipe_free[p] = std::max(c.pipe_free[p], rel);
    c.s_now = std::max(c.s_now, rel);
}

// A core leaves the kernel: it can no longer reach the barriers it belongs to.
ASCEND_SIM_API void barrier_core_exit(bool mix_aic) {
    Runtime& r = rt();
    std::lock_guard<std::mutex> lk(r.bar_mu);
    for (int i = 0; i < 2; ++i) {
        if (i == 0 && mix_aic) continue;  // the AIC is no member of SyncAll<true>
        if (i == 1 && !r.mix) continue;
        Runtime::Barrier& B = r.bars[i];
        B.exited++;
        if (B.arrived > 0 && B.arrived + B.exited == B.participants) {
            B.deadlock = true;
            r.bar_cv.notify_all();
        }
    }
}

ASCEND_SIM_API void crash_handler(int sig, siginfo_t* info, void* context) {
    CoreCtx* core = tl_core;
    // The kernel's own integer division by zero: the NPU does not trap (int_division.h).
    if (sig == SIGFPE && info != nullptr && (info->si_code == FPE_INTDIV || info->si_code == FPE_INTOVF) &&
        core != nullptr && core->in_kernel && core->in_api == 0 &&
        finish_int_division(static_cast<ucontext_t*>(context))) {
        if (core->int_div_faults++ == 0) {
            core->int_div_api = core->last_api;
            core->int_div_loc = core->last_loc;
        }
        return;
    }
    Runtime& r = rt();
    if (r.fatal_in_progress.exchange(true)) {
        wait_for_fatal_owner();
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    fatal_owner() = true;
    CoreCtx* c = tl_core;
    const char* name = sig == SIGSEGV ? "SIGSEGV"
                       : sig == SIGBUS ? "SIGBUS"
                       : sig == SIGFPE ? "SIGFPE"
                       : sig == SIGILL ? "SIGILL"
                       : sig == SIGABRT ? "SIGABRT"
                                        : "signal";
    char msg[512];
    if (c) {
        std::snprintf(msg, sizeof msg,
                      "%s caught inside the kernel (core %d); the last AscendC API call was %s at %s:%d — look for a raw "
                      "pointer access or an assert after it",
                      name, c->block_idx, c->last_api[0] ? c->last_api : "(none)", c->last_loc.file, c->last_loc.line);
        record(true, "CRASH", c->last_api, c->last_loc, msg, false);
    } else {
        std::snprintf(msg, sizeof msg, "%s caught in the host program", name);
        record(true, "CRASH", "host", SrcLoc("host", 0), msg, false);
    }
    write_report();
    std::fflush(stderr);
    signal(sig, SIG_DFL);
    raise(sig);
}

ASCEND_SIM_API void install_signal_handlers() {
    static bool installed = false;
    if (installed) return;
    installed = true;
    struct sigaction sa;
    std::memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = crash_handler;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) sigaction(sig, &sa, nullptr);
}

ASCEND_SIM_API void end_of_kernel_checks(CoreCtx& c) {
    if (c.int_div_faults > 0) {
        char msg[400];
        std::snprintf(msg, sizeof msg,
                      "%llu integer division(s) or remainder(s) by zero (or INT_MIN / -1) in the kernel's code, the "
                      "first after %s: x86 traps, the NPU's scalar unit does not; cpu-sim finished each with quotient "
                      "0 and remainder the dividend (INT_MIN / -1 wraps), but the NPU's value is undocumented, so a "
                      "result must not depend on it",
                      static_cast<unsigned long long>(c.int_div_faults), c.int_div_api[0] ? c.int_div_api : "the start");
        record(false, "INT_DIV_ZERO", c.int_div_api, c.int_div_loc, msg, true);
    }
    for (int e = 0; e < static_cast<int>(HardEvent::MAX); ++e) {
        for (int id = 0; id < 8; ++id) {
            if (c.flag_set[e][id]) {
                char msg[200];
                std::snprintf(msg, sizeof msg,
                              "SetFlag<HardEvent::%s>(%d) has no matching WaitFlag before the kernel ends; on the NPU the "
                              "flag leaks into the next operator",
                              event_name(static_cast<HardEvent>(e)), id);
                record(false, "SYNC_MISMATCH", "SetFlag", c.flag_loc[e][id], msg, true);
            }
        }
    }
}

// Runs the kernel body with the top of its stack recorded: the kernel's frames lie below `top`, the
// launcher's (and the thread's TLS) above it, out of reach of the kernel's stores (scalar_hooks.h).
// Not inlined, so nothing of run_block's frame lies below the mark. The mark is this frame's stack
// pointer at the call: everything below it is the kernel's. (It was the address of a local rounded
// down to 64 bytes, which cut up to 63 bytes off the top of the kernel's own frame: a correct kernel
// failed with STRAY_ACCESS whenever a change elsewhere moved its locals there.)
__attribute__((noinline)) ASCEND_SIM_API void call_kernel(CoreCtx& c, void (*fn)(void*), void* arg) {
#if defined(__x86_64__)
    uintptr_t sp;
    __asm__ volatile("mov %%rsp, %0" : "=r"(sp));
    c.kernel_stack_top = sp;
#elif defined(__aarch64__)
    uintptr_t sp;
    __asm__ volatile("mov %0, sp" : "=r"(sp));
    c.kernel_stack_top = sp;
#else
#error "ascend_sim: call_kernel needs this architecture's stack pointer"
#endif
    c.in_kernel = true;
    fn(arg);
    c.in_kernel = false;
    if (c.reads_pending) verify_reads(c);
}

ASCEND_SIM_API void run_block(void (*fn)(void*), void* arg, int b, int role, int worker, uint64_t start_time) {
    Runtime& r = rt();
    auto ctx = std::make_unique<CoreCtx>();
    CoreCtx& c = *ctx;
    c.block_idx = b;
    c.block_num = r.block_dim;
    c.phys_core = worker;
    c.soc = r.soc;
    c.is_aic = r.mix ? role == 0 : (r.mode_set && r.mode == KernelMode::AIC_MODE);
    if (r.mix && role > 0) {  // the AIVs of a MIX group: logical index block * 2 + sub-block
        c.block_idx = b * 2 + (role - 1);
        c.sub_block_idx = role - 1;
        c.sub_block_num = 2;
    }
    if (r.mix) {
        std::lock_guard<std::mutex> lk(r.xc_mu);
        r.xc_running++;
        r.xc_progress++;
    }
    {
        // Local memory arena: UB at offset 0 (what vector kernels use), then the cube memories.
        // Capacity for all of it is reserved up front (not touched) so materialising the cube part
        // on first use never moves UB data.
        c.ub_space = ub_address_space(*r.soc);
        const uint32_t sizes[kHwCount] = {0, c.ub_space, r.soc->l1_bytes, r.soc->l0a_bytes, r.soc->l0b_bytes,
                                          r.soc->l0c_bytes, r.soc->bt_bytes, r.soc->fb_bytes};
        uint64_t off = 0;
        for (int h = 0; h < kHwCount; ++h) {
            c.hw_base[h] = off;
            c.hw_size[h] = sizes[h];
            off += sizes[h];
        }
        c.ub.reserve(off);
        c.ub_init.reserve(off);
    }
    // The physical UB only: the address space past it is materialised when a kernel's buffers
    // reach it (ensure_ub_space), as the cube memories are (capacity is reserved, pointers stay).
    c.ub.assign(r.soc->ub_bytes, 0xFF);  // stale contents: NaN for float types, -1 for integers
    c.ub_init.assign(r.soc->ub_bytes, 0);
    c.static_block.addr = 0;
    c.static_block.len = r.soc->ub_bytes;
    c.static_block.is_static = true;
    c.static_block.is_tbuf = true;
    c.static_block.state = BufState::OCCUPIED;
    c.static_block.slot = kStaticSlot;
    for (int p = 0; p < kPipeCount; ++p) c.pipe_free[p] = start_time;
    c.s_now = start_time;
    const size_t per_core = r.timeline_limit / static_cast<size_t>(r.block_dim * r.units);
    c.timeline_cap = r.timeline_limit == 0 ? 0 : std::max<size_t>(64, per_core);
    {
        const double hbm_bpc = r.soc->hbm_gbps * 1000.0 / r.soc->freq_mhz;
        const int active = !r.mix ? std::min(r.block_dim, r.phys_cores)
                                  : (c.is_aic ? std::min(r.block_dim, r.soc->cube_cores)
                                              : std::min(2 * r.block_dim, r.soc->vector_cores));
        c.mte2_bpc = std::min(r.soc->mte2_bpc, hbm_bpc / active);
        c.mte3_bpc = std::min(r.soc->mte3_bpc, hbm_bpc / active);
        // Cube loads: at the per-core GM -> L1 rate, shared L2 bandwidth; the HBM side is bounded
        // chip-wide by the unique lines read (run_kernel_impl).
        const double l2_bpc = r.soc->l2_gbps * 1000.0 / r.soc->freq_mhz;
        c.l1_l2_bpc = std::min(r.soc->mte2_l1_bpc, l2_bpc / active);
        c.l1_hbm_bpc = std::min(r.soc->mte2_l1_bpc, hbm_bpc / active);
        c.fix_gm_bpc = std::min(r.soc->fix_bpc, hbm_bpc / active);
    }
    CoreCtx* raw = ctx.get();
    {
        std::lock_guard<std::recursive_mutex> lk(r.mu);
        r.cores[static_cast<size_t>(b * r.units + role)] = std::move(ctx);
    }
    scalar_core_begin(*raw);
    tl_core = raw;
    ::block_idx = raw->block_idx;
    ::block_num = r.block_dim;
    raw->running = true;
    (void)start_time;
    try {
        call_kernel(*raw, fn, arg);
        if (!r.abort.load()) end_of_kernel_checks(*raw);
    } catch (const SimAbort&) {
    } catch (const std::exception& e) {
        char msg[300];
        std::snprintf(msg, sizeof msg, "uncaught C++ exception in the kernel: %s", e.what());
        record(true, "CRASH", raw->last_api, raw->last_loc, msg, false);
        r.abort.store(true);
    } catch (...) {
        record(true, "CRASH", raw->last_api, raw->last_loc, "uncaught C++ exception in the kernel", false);
        r.abort.store(true);
    }
    {
        std::lock_guard<std::mutex> lk(r.bar_mu);
        r.bar_cv.notify_all();
    }
    std::vector<uint8_t>().swap(raw->ub);
    std::vector<uint8_t>().swap(raw->ub_init);
    raw->running = false;
    raw->finished = true;
    tl_core = nullptr;
    if (r.mix) {
        std::lock_guard<std::mutex> lk(r.xc_mu);
        r.unit_done[static_cast<size_t>(b * r.units + role)] = 1;
        r.xc_running--;
        r.xc_progress++;
        r.xc_cv.notify_all();
    }
    if (!r.waves) barrier_core_exit(r.mix && raw->is_aic);
}

ASCEND_SIM_API void run_kernel_impl(const char* name, int64_t block_dim, const char* file, int line, void (*fn)(void*),
                            void* arg) {
    configure();
    Runtime& r = rt();
    const SrcLoc loc(file, line);
    if (block_dim < 1 || block_dim > 65535) {
        char msg[160];
        std::snprintf(msg, sizeof msg, "ICPU_RUN_KF(%s, %lld, ...): blockDim must be in [1, 65535]", name,
                      static_cast<long long>(block_dim));
        record(true, "BAD_PARAM", "ICPU_RUN_KF", loc, msg, false);
        fatal_exit();
    }
    install_signal_handlers();
    const int bd = static_cast<int>(block_dim);
    r.kernel = name;
    r.block_dim = bd;
    r.abort = false;
    {
        std::lock_guard<std::mutex> lk(r.l2_mu);
        r.l2_lines.clear();
    }
    r.mix = r.mode_set && r.mode == KernelMode::MIX_MODE && r.soc->split_arch;
    r.units = r.mix ? 3 : 1;
    r.cores.clear();
    r.cores.resize(static_cast<size_t>(bd * r.units));
    {
        std::lock_guard<std::mutex> lk(r.xc_mu);
        r.xc.clear();
        r.unit_done.assign(static_cast<size_t>(bd * r.units), 0);
        for (auto& kind : r.m0)
            for (auto& f : kind) f.clear();
        r.xc_m01 = false;
        r.xc_running = r.xc_blocked = 0;
        r.xc_progress = 0;
    }
    r.phys_cores = (r.mode_set && r.mode == KernelMode::AIC_MODE) || r.mix ? r.soc->cube_cores : r.soc->vector_cores;
    r.waves = bd > r.phys_cores;
    {
        std::lock_guard<std::mutex> lk(r.bar_mu);
        r.bars[0] = Runtime::Barrier();
        r.bars[1] = Runtime::Barrier();
        r.bars[0].participants = r.waves ? 0 : (r.mix ? 2 * bd : bd);
        r.bars[1].participants = r.waves || !r.mix ? 0 : 3 * bd;
    }
    accounting_begin();
    r.launch_active = true;

    const int ngroups = std::min(bd, r.phys_cores);
    const int nthreads = ngroups * r.units;
    std::vector<uint64_t> worker_clock(static_cast<size_t>(nthreads), 0);
    std::vector<std::thread> threads;
    threads.reserve(static_cast<size_t>(nthreads));

    std::mutex wd_mu;
    std::condition_variable wd_cv;
    bool done = false;
    std::thread watchdog([&] {
        std::unique_lock<std::mutex> lk(wd_mu);
        const auto limit = std::chrono::duration<double>(r.timeout_s);
        if (wd_cv.wait_for(lk, limit, [&] { return done; })) return;
        lk.unlock();
        // Name a core that is still running and where it last called the API.
        int stuck = -1;
        SrcLoc where("?", 0);
        const char* api = "";
        {
            std::lock_guard<std::recursive_mutex> g(r.mu);
            for (const auto& cp : r.cores) {
                if (cp && cp->running.load()) {
                    stuck = cp->block_idx;
                    where = cp->last_loc;
                    api = cp->last_api;
                    break;
                }
            }
        }
        char msg[400];
        std::snprintf(msg, sizeof msg,
                      "kernel %s still running after %.1f s (ASCEND_SIM_TIMEOUT_S); core %d last called %s at %s:%d — an "
                      "endless loop or a wait that never ends",
                      name, r.timeout_s, stuck, api[0] ? api : "(no AscendC API)", where.file, where.line);
        record(true, "SIM_TIMEOUT", api, where, msg, false, stuck);
        r.abort.store(true);
        {
            std::lock_guard<std::mutex> g(r.bar_mu);
            r.bar_cv.notify_all();
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        fatal_exit();
    });

    for (int w = 0; w < nthreads; ++w) {
        threads.emplace_back([&, w] {
            // Alternate signal stack so a stack overflow inside the kernel is still reported.
            static thread_local std::vector<char> altstack(1 << 16);
            stack_t ss;
            ss.ss_sp = altstack.data();
            ss.ss_size = altstack.size();
            ss.ss_flags = 0;
            sigaltstack(&ss, nullptr);
            thread_stack_bounds();
            install_kernel_seccomp();  // from here on this thread runs kernel code (kernel_seccomp.h)
            uint64_t clock = 0;
            const int role = w % r.units;
            for (int b = w / r.units; b < bd; b += ngroups) {
                if (r.abort.load()) break;
                run_block(fn, arg, b, role, w, clock);
                const CoreCtx* c = r.cores[static_cast<size_t>(b * r.units + role)].get();
                clock = c ? core_end_time(*c) : clock;
            }
            worker_clock[static_cast<size_t>(w)] = clock;
        });
    }
    for (auto& t : threads) t.join();
    {
        std::lock_guard<std::mutex> lk(wd_mu);
        done = true;
    }
    wd_cv.notify_all();
    watchdog.join();
    r.launch_active = false;
    accounting_end();
    if (r.mix && !r.abort.load()) {  // cross-core flags set but never waited for leak into the next operator
        std::lock_guard<std::mutex> lk(r.xc_mu);
        for (const auto& kv : r.xc) {
            for (int f = 0; f < 16; ++f) {
                const size_t to_aiv = std::max(kv.second.to_aiv[0][f].size(), kv.second.to_aiv[1][f].size());
                const size_t to_aic = std::max(kv.second.to_aic[0][f].size(), kv.second.to_aic[1][f].size());
                if (to_aiv || to_aic) {
                    char msg[240];
                    std::snprintf(msg, sizeof msg,
                                  "block %d: CrossCoreSetFlag(%d) towards the %s was set %zu more time(s) than it was "
                                  "waited for; on the NPU the count leaks into the next operator",
                                  kv.first, f, to_aiv ? "AIVs" : "AIC", to_aiv ? to_aiv : to_aic);
                    record(false, "SYNC_MISMATCH", "CrossCoreSetFlag", loc, msg, true, kv.first);
                }
                const size_t m1 = std::max(kv.second.m1[0][f].size(), kv.second.m1[1][f].size());
                if (m1) {
                    char msg[240];
                    std::snprintf(msg, sizeof msg,
                                  "block %d: CrossCoreSetFlag<1>(%d) was set by one AIV only (%zu time(s)); mode 1 "
                                  "counts once both AIVs of the block have set it",
                                  kv.first, f, m1);
                    record(false, "SYNC_MISMATCH", "CrossCoreSetFlag", loc, msg, true, kv.first);
                }
            }
        }
        for (int kind = 0; kind < 2; ++kind) {
            for (int f = 0; f < 16; ++f) {
                size_t pending = 0;
                for (const auto& kv : r.m0[kind][f]) pending = std::max(pending, kv.second.size());
                if (pending) {
                    char msg[240];
                    std::snprintf(msg, sizeof msg,
                                  "CrossCoreSetFlag<0>(%d) was set by only some of the %s (%zu time(s)); mode 0 "
                                  "counts once every core of the kind has set it",
                                  f, kind == 0 ? "AICs" : "AIVs", pending);
                    record(false, "SYNC_MISMATCH", "CrossCoreSetFlag", loc, msg, true);
                }
            }
        }
    }

    uint64_t core_bound = 0;
    uint64_t gm_bytes = 0;
    uint64_t l1_bytes = 0;
    uint64_t macs = 0;
    for (uint64_t t : worker_clock) core_bound = std::max(core_bound, t);
    for (const auto& cp : r.cores) {
        if (cp) {
            gm_bytes += cp->gm_read + cp->gm_write;
            l1_bytes += cp->l1_read;
            macs += cp->cube_macs;
        }
    }
    {
        // Cube loads reach HBM once per distinct 512-byte line; repeats are L2 hits.
        std::lock_guard<std::mutex> lk(r.l2_mu);
        gm_bytes += static_cast<uint64_t>(r.l2_lines.size()) * 512;
    }
    const double hbm_bpc = r.soc->hbm_gbps * 1000.0 / r.soc->freq_mhz;
    const double l2_bpc = r.soc->l2_gbps * 1000.0 / r.soc->freq_mhz;
    const uint64_t hbm_bound = static_cast<uint64_t>(static_cast<double>(gm_bytes) / hbm_bpc + 0.999);
    const uint64_t l2_bound = static_cast<uint64_t>(static_cast<double>(l1_bytes) / l2_bpc + 0.999);
    r.core_bound_cycles = core_bound;
    r.hbm_bound_cycles = hbm_bound;
    r.l2_bound_cycles = l2_bound;
    r.cube_macs = macs;
    r.gm_bytes = gm_bytes;
    r.total_cycles = std::max(std::max(core_bound, hbm_bound), l2_bound);
    r.launches.push_back(LaunchSummary{name, bd, r.total_cycles, cycles_to_us(r.total_cycles)});
    if (r.any_error) {
        std::fprintf(stderr, "[ERROR][Host][%s:%d][ICPU_RUN_KF] kernel %s failed, see the errors above\n", file, line, name);
        fatal_exit();
    }
    write_report();
}


ASCEND_SIM_API void set_kernel_mode(KernelMode mode) {
    configure();
    rt().mode = mode;
    rt().mode_set = true;
}

ASCEND_SIM_API bool core_is_aic() { return tl_core && tl_core->is_aic; }
ASCEND_SIM_API bool mix_launch() { return rt().mix; }

ASCEND_SIM_API void l2_touch(const void* gm, uint64_t bytes) {
    if (!bytes) return;
    Runtime& r = rt();
    const uintptr_t a = reinterpret_cast<uintptr_t>(gm);
    std::lock_guard<std::mutex> lk(r.l2_mu);
    for (uintptr_t l = a >> 9; l <= (a + bytes - 1) >> 9; ++l) r.l2_lines.insert(l);
}

ASCEND_SIM_API void set_tiling_key(int64_t key) {
    configure();
    rt().tiling_key = key;
}

ASCEND_SIM_API int64_t get_tiling_key() { return rt().tiling_key; }

ASCEND_SIM_API bool gm_owns(const void* p) { return gm_contains(p, 1, nullptr); }

ASCEND_SIM_API void bad_kernel_arg(const char* kernel, int idx, const void* p, const char* file, int line) {
    char msg[256];
    std::snprintf(msg, sizeof msg, "argument %d of ICPU_RUN_KF(%s, ...) is %p, which was not allocated with AscendC::GmAlloc",
                  idx, kernel, p);
    record(true, "GM_OOB", "ICPU_RUN_KF", SrcLoc(file, line), msg, false);
    fatal_exit();
    std::_Exit(3);
}


// ------------------------------------------------------------------------------------------
// Small accessors
// ------------------------------------------------------------------------------------------
ASCEND_SIM_API bool aborting() { return rt().abort.load(); }

ASCEND_SIM_API const SocProfile* current_soc() {
    configure();
    return rt().soc;
}

// ------------------------------------------------------------------------------------------
// Operand checks
// ------------------------------------------------------------------------------------------
ASCEND_SIM_API std::string describe_block(const BlockInfo* b) {
    char buf[160];
    if (b->is_static) {
        std::snprintf(buf, sizeof buf, "static UB region");
    } else {
        const CoreCtx* c = tl_core;
        const uint64_t base = c ? c->hw_base[static_cast<int>(b->hw)] : 0;
        std::snprintf(buf, sizeof buf, "%s buffer of %u bytes at %s offset %llu (TPosition::%s)",
                      b->is_tbuf ? "TBuf" : "queue", b->len, hw_name(b->hw),
                      static_cast<unsigned long long>(b->addr - base), position_name(b->pos));
    }
    return buf;
}

ASCEND_SIM_API void ensure_ub_space(CoreCtx& c) {
    if (c.ub.size() >= c.ub_space) return;
    c.ub.resize(c.ub_space, 0xFF);
    c.ub_init.resize(c.ub_space, 0);
}

ASCEND_SIM_API void ensure_cube_arena(CoreCtx& c) {
    if (c.cube_arena) return;
    c.cube_arena = true;
    c.ub.resize(c.ub.capacity(), 0xFF);
    c.ub_init.resize(c.ub.capacity(), 0);
}

ASCEND_SIM_API std::string hw_mask_names(uint32_t mask) {
    std::string out;
    for (int h = 0; h < kHwCount; ++h) {
        if (mask & (1u << h)) {
            if (!out.empty()) out += " / ";
            out += hw_name(static_cast<Hardware>(h));
        }
    }
    return out;
}

// Validates a LocalTensor operand: allocated, not freed, aligned; returns its memory.
ASCEND_SIM_API BlockInfo* owned_block(BlockInfo* b, const char* api, const SrcLoc& loc) {
    CoreCtx* c = tl_core;
    if (b && c) {
        if (b == &c->static_block) return b;
        if (b->slot < c->blocks.size() && &c->blocks[b->slot] == b) return b;
    }
    fail("BAD_PARAM", api, loc,
         "%s was given a local tensor or queue whose buffer is not one of this core's (its internals were "
         "overwritten, or it belongs to another core)",
         api);
}

ASCEND_SIM_API bool core_lacks(const CoreCtx& c, Hardware hw) {
    if (c.is_aic) return hw == Hardware::UB;
    return c.soc->split_arch && hw != Hardware::UB && rt().mode_set && rt().mode != KernelMode::AIC_MODE;
}

[[noreturn]] ASCEND_SIM_API void fail_absent_memory(const CoreCtx& c, const BlockInfo& b, const char* api,
                                                    const SrcLoc& loc) {
    if (c.is_aic) {
        fail("BAD_PARAM", api, loc,
             "TPosition::%s is the Unified Buffer, which the cube core (AIC) does not have: on %s vector buffers "
             "belong in the AIV part of the kernel (if ASCEND_IS_AIV) or an AIV_MODE launch (InitBuffer only "
             "places such a buffer; this use is what the AIC cannot do)",
             position_name(b.pos), c.soc->name);
    }
    fail("BAD_PARAM", api, loc,
         "TPosition::%s is %s, a cube-core memory the vector core (AIV) does not have on %s: cube buffers belong "
         "in the AIC part of the kernel (if ASCEND_IS_AIC) of a MIX_MODE or AIC_MODE launch (InitBuffer only "
         "places such a buffer; this use is what the AIV cannot do)",
         position_name(b.pos), hw_name(b.hw), c.soc->name);
}

ASCEND_SIM_API LocalView view_raw(const TensorRef& t, const char* api, const char* role, const SrcLoc& loc,
                                  uint32_t align, uint32_t hw_mask, Touch touch) {
    BlockInfo* b = t.blk;
    if (!b) {
        fail("BAD_PARAM", api, loc,
             "%s is a LocalTensor that was never allocated (default-constructed; use AllocTensor/DeQue/TBuf::Get)",
             role);
    }
    owned_block(b, api, loc);
    // A read of a queue buffer freed once since this tensor got it, and not handed out again,
    // reads what the tensor held, where no later write can overtake it: the scalar unit reads
    // synchronously, in program order (NPUKernelBench's FeedsRepeat reads its repeat counts after
    // freeing their VECIN buffer); a vector instruction reading a VECOUT buffer is queued behind
    // the buffer's only writer, the vector pipe (its RmsNorm broadcasts rstd after copying it out
    // and freeing it). A DMA reading it, a write, or a buffer reused since may see other data.
    const bool freed_unused = b->state == BufState::FREE && t.gen + 1 == b->gen && !b->is_tbuf;
    const bool vector_read = touch == Touch::Inferred && b->pos == TPosition::VECOUT &&
                             std::strncmp(role, "dst", 3) != 0 && std::strncmp(api, "DataCopy", 8) != 0;
    const bool stale_read = freed_unused && (touch == Touch::ScalarRead || vector_read);
    if ((b->state == BufState::DEAD || t.gen != b->gen) && !stale_read) {
        fail("USE_AFTER_FREE", api, loc,
             "%s refers to a %s that was released by FreeTensor (or TPipe::Reset) after this tensor was obtained; "
             "the buffer may already hold other data",
             role, describe_block(b).c_str());
    }
    if (!b->is_tbuf && b->state == BufState::FREE && !stale_read) {
        fail("USE_AFTER_FREE", api, loc, "%s refers to a queue buffer that is free (after FreeTensor)", role);
    }
    CoreCtx* c = tl_core;
    if (b->absent) fail_absent_memory(*c, *b, api, loc);
    if (!(hw_mask & hw_bit(b->hw))) {
        fail("BAD_PARAM", api, loc,
             "Failed to check %s tensor position in %s, supported positions are %s, current position is "
             "TPosition::%s (%s)",
             role, api, hw_mask_names(hw_mask).c_str(), position_name(b->pos), hw_name(b->hw));
    }
    const uint64_t addr = static_cast<uint64_t>(b->addr) + t.off;
    const uint64_t rel = addr - c->hw_base[static_cast<int>(b->hw)];
    if (align > 1 && rel % align != 0) {
        fail("ADDR_ALIGN", api, loc,
             "%s starts at %s byte address %llu, which is not %u-byte aligned (%u bytes into its %s)", role,
             hw_name(b->hw), static_cast<unsigned long long>(rel), align, t.off, describe_block(b).c_str());
    }
    LocalView v;
    v.data = c->ub.data() + addr;
    v.shadow = c->ub_init.data() + addr;
    v.blk = b;
    const uint64_t blk_end = static_cast<uint64_t>(b->addr) + b->len;
    v.blk_room = addr <= blk_end ? blk_end - addr : 0;
    v.extent = std::min(t.bytes, v.blk_room);
    if (b->hw == Hardware::UB) {  // a buffer InitBuffer placed past the physical UB: only what lies inside is there
        const uint64_t phys = c->soc->ub_bytes;
        const uint64_t room = rel < phys ? phys - rel : 0;
        if (v.extent > room) {
            v.past_ub = true;
            v.extent = room;
        }
        v.blk_room = std::min(v.blk_room, room);
    }
    return v;
}

[[noreturn]] ASCEND_SIM_API void fail_past_ub(const LocalView& v, uint64_t first, const char* api, const char* role,
                                 const SrcLoc& loc) {
    const CoreCtx* c = tl_core;
    const uint64_t rel = static_cast<uint64_t>(v.data - c->ub.data()) + first;
    fail("UB_OVERFLOW", api, loc,
         "%s accesses Unified Buffer byte %llu, past the end of the %u-byte UB of %s: its %s was placed there by "
         "InitBuffer (the buffers of this TPipe add up to more than the UB holds; the NPU places them without a "
         "check, and faults on the first access past the end)",
         role, static_cast<unsigned long long>(rel), c->soc->ub_bytes, c->soc->name, describe_block(v.blk).c_str());
}

// The NPU bounds no vector, DMA or scalar access by its LocalTensor: past the tensor's end it
// reads or writes whatever the Unified Buffer holds there (the rest of its buffer, the next
// buffer, free UB). Inside the physical UB the access is carried out as the hardware would, with
// a LOCAL_OOB warning (the outputs decide: a clobbered neighbour that is still needed gives wrong
// values, as on the NPU); past the UB, or in L1/L0 (kept per buffer here), it fails.
ASCEND_SIM_API bool spills_within_ub(const LocalView& v, uint64_t bytes) {
    const CoreCtx* c = tl_core;
    if (!c || !v.blk || v.blk->hw != Hardware::UB || v.past_ub || v.data < c->ub.data()) return false;
    const uint64_t rel = static_cast<uint64_t>(v.data - c->ub.data());
    return rel + bytes <= c->soc->ub_bytes && rel + bytes <= c->ub.size();
}

// The operand must hold `bytes` bytes from its start (or spill into UB: spills_within_ub).
ASCEND_SIM_API void need(const LocalView& v, uint64_t bytes, const char* api, const char* role, const SrcLoc& loc) {
    if (bytes > v.extent && v.past_ub) fail_past_ub(v, v.extent, api, role, loc);
    if (bytes > v.extent && spills_within_ub(v, bytes)) {
        warn("LOCAL_OOB", api, loc,
             "%s accesses %llu bytes but the LocalTensor holds only %llu bytes from its start (%s): on the NPU the "
             "access runs on into the Unified Buffer past it, clobbering or reading whatever lies there",
             role, static_cast<unsigned long long>(bytes), static_cast<unsigned long long>(v.extent),
             describe_block(v.blk).c_str());
        return;
    }
    if (bytes > v.extent) {
        fail("LOCAL_OOB", api, loc,
             "%s accesses %llu bytes but the LocalTensor holds only %llu bytes from its start (%s)", role,
             static_cast<unsigned long long>(bytes), static_cast<unsigned long long>(v.extent),
             describe_block(v.blk).c_str());
    }
}

ASCEND_SIM_API void check_init(const LocalView& v, uint64_t off, uint64_t bytes, const char* api, const char* role,
                               const SrcLoc& loc) {
    if (!bytes) return;
    const void* hole = std::memchr(v.shadow + off, 0, bytes);
    if (hole) {
        const uint64_t at = static_cast<uint64_t>(static_cast<const uint8_t*>(hole) - v.shadow);
        warn("UNINIT_READ", api, loc,
             "%s reads UB memory that was never written since its buffer was allocated (first at byte %llu of the "
             "tensor): the values are stale",
             role, static_cast<unsigned long long>(at));
    }
}

ASCEND_SIM_API LocalView check_element_raw(const TensorRef& t, uint64_t index, uint64_t esize, const char* api,
                                           const SrcLoc& loc, Touch touch) {
    LocalView v = view_raw(t, api, "the tensor", loc, 1, kHwUB, touch);
    const uint64_t end = (index + 1) * esize;
    const uint64_t buffer_room = static_cast<uint64_t>(t.blk->addr) + t.blk->len - (t.blk->addr + t.off);
    if (end <= t.bytes && end <= buffer_room && end > v.blk_room) fail_past_ub(v, index * esize, api, "the tensor", loc);
    if ((end > t.bytes || end > v.blk_room) && spills_within_ub(v, end)) {
        warn("LOCAL_OOB", api, loc,
             "element index %llu is outside the LocalTensor of %llu elements (%s): on the NPU it addresses the "
             "Unified Buffer past the tensor",
             static_cast<unsigned long long>(index), static_cast<unsigned long long>(t.bytes / esize),
             describe_block(t.blk).c_str());
        return v;
    }
    if (end > t.bytes || end > v.blk_room) {
        fail("LOCAL_OOB", api, loc, "element index %llu is outside the LocalTensor of %llu elements (%s)",
             static_cast<unsigned long long>(index), static_cast<unsigned long long>(t.bytes / esize),
             describe_block(t.blk).c_str());
    }
    return v;
}

// ------------------------------------------------------------------------------------------
// TPipe, queues, TBuf
// ------------------------------------------------------------------------------------------
ASCEND_SIM_API void tpipe_created(void* pipe, const SrcLoc& loc) {
    const ::AscendC::sim::ApiScope api_scope_;
    CoreCtx& c = enter("TPipe", loc);
    if (c.pipes_alive > 0) {
        warn("BAD_PARAM", "TPipe", loc,
             "a second TPipe was constructed while another is alive; a kernel must create exactly one TPipe");
    }
    c.pipes_alive++;
    c.current_pipe = pipe;
}

ASCEND_SIM_API void tpipe_destroyed(void* pipe) {
    CoreCtx* c = tl_core;
    if (!c) return;
    c->pipes_alive--;
    if (c->current_pipe == pipe) c->current_pipe = nullptr;
}

ASCEND_SIM_API void* tpipe_current() { return tl_core ? tl_core->current_pipe : nullptr; }

ASCEND_SIM_API void tpipe_reset(const SrcLoc& loc, bool keep_tbufs) {
    const ::AscendC::sim::ApiScope api_scope_;
    CoreCtx& c = enter(keep_tbufs ? "TPipe::Destroy" : "TPipe::Reset", loc);
    for (auto& b : c.blocks) {
        if (keep_tbufs && b.is_tbuf) continue;
        b.state = BufState::DEAD;
        b.gen++;
    }
    c.ub_cursor = 0;
    for (auto& h : c.hw_cursor) h = 0;
    c.buffers_total = 0;
    for (auto& n : c.per_pos_buffers) n = 0;
}

ASCEND_SIM_API TEventID event_alloc(HardEvent evt, const SrcLoc& loc) {
    const ::AscendC::sim::ApiScope api_scope_;
    CoreCtx& c = enter("AllocEventID", loc);
    uint8_t& used = c.event_reserved[static_cast<int>(evt)];
    for (int id = 0; id < 8; ++id) {
        if (!(used & (1u << id))) {
            used = static_cast<uint8_t>(used | (1u << id));
            return static_cast<TEventID>(id);
        }
    }
    fail("BAD_PARAM", "AllocEventID", loc, "all 8 event IDs of HardEvent::%s are already allocated", event_name(evt));
}

ASCEND_SIM_API void event_release(HardEvent evt, TEventID id, const SrcLoc& loc) {
    const ::AscendC::sim::ApiScope api_scope_;
    CoreCtx& c = enter("ReleaseEventID", loc);
    if (id < 0 || id >= 8) fail("BAD_PARAM", "ReleaseEventID", loc, "event id %d is outside 0..7", id);
    c.event_reserved[static_cast<int>(evt)] &= static_cast<uint8_t>(~(1u << id));
}

ASCEND_SIM_API TEventID event_fetch(HardEvent evt, const SrcLoc& loc) {
    const ::AscendC::sim::ApiScope api_scope_;
    CoreCtx& c = enter("FetchEventID", loc);
    const uint8_t used = c.event_reserved[static_cast<int>(evt)];
    for (int id = 0; id < 8; ++id) {
        if (!(used & (1u << id))) return static_cast<TEventID>(id);
    }
    return 0;
}

ASCEND_SIM_API bool init_queue(QueueState& q, int num, uint32_t len, const SrcLoc& loc, bool tbuf) {
    const ::AscendC::sim::ApiScope api_scope_;
    CoreCtx& c = enter("InitBuffer", loc);
    kernel_memory(&q, sizeof q, "InitBuffer");
    if (q.inited) {
        fail("QUE_ORDER", "InitBuffer", loc, "this %s was already initialised by InitBuffer", tbuf ? "TBuf" : "queue");
    }
    const Hardware hw = position_hw(q.pos, c.soc->split_arch);
    if (hw == Hardware::GM) {
        fail("BAD_PARAM", "InitBuffer", loc,
             "buffer pos can not be Hardware::GM: TPosition::%s is global memory on %s (Fixpipe writes L0C results "
             "straight to GM), so it has no local buffer",
             position_name(q.pos), c.soc->name);
    }
    // A memory this core lacks: placed (InitBuffer is address arithmetic on the NPU), failed on use.
    const bool absent = core_lacks(c, hw);
    if (hw != Hardware::UB) ensure_cube_arena(c);
    if (num <= 0) fail("BAD_PARAM", "InitBuffer", loc, "buffer number must be at least 1 (got %d)", num);
    if (len == 0) {
        fail("BAD_PARAM", "InitBuffer", loc,
             "buffer length is 0, which should be larger than 0 and at most the Unified Buffer size");
    }
    const uint32_t aligned = (len + ONE_BLK_SIZE - 1) / ONE_BLK_SIZE * ONE_BLK_SIZE;
    const int posi = static_cast<int>(q.pos);
    if (!tbuf && q.depth != 0 && c.per_pos_buffers[posi] + num > QUE_MAX_EVENT) {
        fail("QUE_DEPTH", "InitBuffer", loc,
             "too many buffers at TPosition::%s: this InitBuffer asks for %d more, %d already exist; the hardware has "
             "%d event IDs per position, so at most %d queue buffers may share a position",
             position_name(q.pos), num, c.per_pos_buffers[posi], QUE_MAX_EVENT, QUE_MAX_EVENT);
    }
    if (num > 64 || c.buffers_total + num > QBUF_MAX_LEN) {
        fail("QUE_DEPTH", "InitBuffer", loc,
             "too many buffers managed by one TPipe: %d requested on top of %d, the limit is %d", num,
             c.buffers_total, QBUF_MAX_LEN);
    }
    const uint64_t need_bytes = static_cast<uint64_t>(aligned) * static_cast<uint64_t>(num);
    if (hw != Hardware::UB) {
        const int h = static_cast<int>(hw);
        if (c.hw_cursor[h] + need_bytes > c.hw_size[h]) {
            fail("BUF_OVERFLOW", "InitBuffer", loc,
                 "buffers at TPosition::%s need %llu bytes of %s in total (%u already allocated + %d x %u), which "
                 "exceeds the %u-byte %s of %s",
                 position_name(q.pos), static_cast<unsigned long long>(c.hw_cursor[h] + need_bytes), hw_name(hw),
                 c.hw_cursor[h], num, aligned, c.hw_size[h], hw_name(hw), c.soc->name);
        }
    }
    if (hw == Hardware::UB && c.ub_cursor + need_bytes > c.ub_space) {
        fail("UB_OVERFLOW", "InitBuffer", loc,
             "buffers need %llu bytes in total (%u already allocated + %d x %u), which exceeds the %u-byte Unified "
             "Buffer of %s (cpu-sim places buffers up to %u bytes, and fails an access past the UB's end)",
             static_cast<unsigned long long>(c.ub_cursor + need_bytes), c.ub_cursor, num, aligned, c.soc->ub_bytes,
             c.soc->name, c.ub_space);
    }
    if (hw == Hardware::UB && c.ub_cursor + need_bytes > c.soc->ub_bytes) ensure_ub_space(c);
    if (hw == Hardware::UB && c.ub_cursor + need_bytes > c.soc->ub_bytes && c.ub_cursor <= c.soc->ub_bytes) {
        warn("UB_OVERFLOW", "InitBuffer", loc,
             "buffers need %llu bytes in total (%u already allocated + %d x %u), more than the %u-byte Unified Buffer "
             "of %s: the NPU places them without a check (CANN's CPU-debug build refuses them), and any access past "
             "the end fails",
             static_cast<unsigned long long>(c.ub_cursor + need_bytes), c.ub_cursor, num, aligned, c.soc->ub_bytes,
             c.soc->name);
    }
    q.num = num;
    q.len = aligned;
    q.inited = true;
    q.is_tbuf = tbuf;
    q.core = c.block_idx;
    for (int i = 0; i < num; ++i) {
        c.blocks.emplace_back();
        BlockInfo& b = c.blocks.back();
        b.slot = static_cast<uint32_t>(c.blocks.size() - 1);
        if (hw == Hardware::UB) {
            b.addr = c.ub_cursor;
            c.ub_cursor += aligned;
        } else {
            b.addr = static_cast<uint32_t>(c.hw_base[static_cast<int>(hw)] + c.hw_cursor[static_cast<int>(hw)]);
            c.hw_cursor[static_cast<int>(hw)] += aligned;
        }
        b.len = aligned;
        b.hw = hw;
        b.pos = q.pos;
        b.is_tbuf = tbuf;
        b.absent = absent;
        b.owner = &q;
        b.index = i;
        b.state = tbuf ? BufState::OCCUPIED : BufState::FREE;
        q.blocks[i] = &b;
    }
    c.buffers_total += num;
    if (!tbuf && q.depth != 0) c.per_pos_buffers[posi] += num;
    return true;
}

ASCEND_SIM_API BlockInfo* que_alloc(QueueState& q, const SrcLoc& loc) {
    const ::AscendC::sim::ApiScope api_scope_;
    CoreCtx& c = enter("AllocTensor", loc);
    kernel_memory(&q, sizeof q, "AllocTensor");
    if (!q.inited) fail("QUE_ORDER", "AllocTensor", loc, "AllocTensor on a queue that was never initialised with InitBuffer");
    BlockInfo* b = nullptr;
    for (int k = 0; k < q.num; ++k) {
        BlockInfo* cand = owned_block(q.blocks[(q.alloc_cursor + k) % q.num], "AllocTensor", loc);
        if (cand->state == BufState::FREE) {
            b = cand;
            q.alloc_cursor = (cand->index + 1) % q.num;
            break;
        }
    }
    if (!b) {
        fail("QUE_DEPTH", "AllocTensor", loc,
             "all %d buffer(s) of this queue are in use (allocated and not yet freed); FreeTensor one first — on the "
             "NPU this AllocTensor would wait forever",
             q.num);
    }
    Pipe prod, cons;
    que_pipes(q.src, q.dst, prod, cons);
    charge_scalar(c, c.soc->queue_op_cycles);
    pipe_wait(c, prod, b->free_time);  // WaitFlag(consumer -> producer)
    b->state = BufState::OCCUPIED;
    std::memset(c.ub_init.data() + b->addr, 0, b->len);  // contents are undefined after AllocTensor
    return b;
}

static inline BlockInfo* que_own(QueueState& q, const TensorRef& t, const char* api, const SrcLoc& loc) {
    BlockInfo* b = t.blk;
    if (!b) fail("BAD_PARAM", api, loc, "%s of a LocalTensor that was never allocated", api);
    owned_block(b, api, loc);
    if (b->owner != &q) {
        fail("QUE_ORDER", api, loc, "%s of a tensor that does not belong to this queue (it came from another queue or a "
             "TBuf)", api);
    }
    if (b->state == BufState::DEAD) {
        fail("USE_AFTER_FREE", api, loc, "%s of a tensor whose buffer was released by TPipe::Reset", api);
    }
    return b;
}

ASCEND_SIM_API void que_free(QueueState& q, const TensorRef& t, const SrcLoc& loc) {
    const ::AscendC::sim::ApiScope api_scope_;
    CoreCtx& c = enter("FreeTensor", loc);
    kernel_memory(&q, sizeof q, "FreeTensor");
    BlockInfo* b = que_own(q, t, "FreeTensor", loc);
    if (t.gen != b->gen || b->state == BufState::FREE) {
        fail("QUE_ORDER", "FreeTensor", loc, "double free: this tensor's buffer was already released by an earlier FreeTensor");
    }
    if (b->state == BufState::ENQUE) {
        fail("QUE_ORDER", "FreeTensor", loc,
             "FreeTensor of a tensor that is still in the queue (EnQue'd, not DeQue'd); DeQue it first");
    }
    Pipe prod, cons;
    que_pipes(q.src, q.dst, prod, cons);
    charge_scalar(c, c.soc->queue_op_cycles);
    b->free_time = pipe_time(c, cons);  // SetFlag(consumer -> producer)
    b->state = BufState::FREE;
    b->gen++;
}

ASCEND_SIM_API void que_enque(QueueState& q, const TensorRef& t, const SrcLoc& loc) {
    const ::AscendC::sim::ApiScope api_scope_;
    CoreCtx& c = enter("EnQue", loc);
    kernel_memory(&q, sizeof q, "EnQue");
    BlockInfo* b = que_own(q, t, "EnQue", loc);
    if (t.gen != b->gen) fail("USE_AFTER_FREE", "EnQue", loc, "EnQue of a tensor whose buffer was already freed by FreeTensor");
    if (b->state != BufState::OCCUPIED && b->state != BufState::DEQUE) {
        fail("QUE_ORDER", "EnQue", loc, "EnQue of a tensor in state %s; only an allocated or dequeued tensor can be enqueued",
             state_name(b->state));
    }
    const int limit = q.depth == 0 ? q.num : q.depth;
    if (q.fifo_count >= limit) {
        fail("QUE_DEPTH", "EnQue", loc,
             "usedCount is %d, which exceeds the queue depth %d: EnQue more times than the depth without DeQue",
             q.fifo_count, limit);
    }
    Pipe prod, cons;
    que_pipes(q.src, q.dst, prod, cons);
    charge_scalar(c, c.soc->queue_op_cycles);
    b->enq_time = pipe_time(c, prod);  // SetFlag(producer -> consumer)
    b->state = BufState::ENQUE;
    q.fifo[(q.fifo_head + q.fifo_count) % 64] = b;
    q.fifo_count++;
    q.last_enque = loc;
}

ASCEND_SIM_API BlockInfo* que_deque(QueueState& q, const SrcLoc& loc) {
    const ::AscendC::sim::ApiScope api_scope_;
    CoreCtx& c = enter("DeQue", loc);
    kernel_memory(&q, sizeof q, "DeQue");
    if (q.fifo_count == 0) {
        fail("QUE_ORDER", "DeQue", loc,
             "DeQue from an empty queue: no EnQue precedes it, so on the NPU this core would wait forever");
    }
    BlockInfo* b = owned_block(q.fifo[q.fifo_head], "DeQue", loc);
    q.fifo_head = (q.fifo_head + 1) % 64;
    q.fifo_count--;
    Pipe prod, cons;
    que_pipes(q.src, q.dst, prod, cons);
    charge_scalar(c, c.soc->queue_op_cycles);
    pipe_wait(c, cons, b->enq_time);  // WaitFlag(producer -> consumer)
    b->state = BufState::DEQUE;
    return b;
}

ASCEND_SIM_API void que_destroyed(QueueState& q) {
    if (tl_core && q.inited && q.fifo_count > 0 && !rt().abort.load() && !std::uncaught_exceptions()) {
        warn("QUE_ORDER", "EnQue", q.last_enque,
             "%d tensor(s) were EnQue'd into this queue but never DeQue'd before the kernel ended", q.fifo_count);
    }
}

ASCEND_SIM_API BlockInfo* tbuf_block(QueueState& q, const char* api, const SrcLoc& loc) {
    const ::AscendC::sim::ApiScope api_scope_;
    enter(api, loc);
    if (!q.inited) {
        // The NPU hands out an address all the same; only a use of it is wrong (NPUKernelBench's
        // TanhMath gets a float scratch tensor it uses only for half). The tensor it gets has no
        // buffer: any API it reaches fails there (view_raw).
        warn("QUE_ORDER", api, loc, "TBuf used before TPipe::InitBuffer initialised it: its tensor has no buffer");
        return nullptr;
    }
    BlockInfo* b = owned_block(q.blocks[0], api, loc);
    if (b->state == BufState::DEAD) fail("USE_AFTER_FREE", api, loc, "TBuf used after TPipe::Reset released it");
    return b;
}

// ------------------------------------------------------------------------------------------
// Flags and barriers
// ------------------------------------------------------------------------------------------
ASCEND_SIM_API void set_flag(HardEvent evt, int32_t id, const char* api, const SrcLoc& loc) {
    const ::AscendC::sim::ApiScope api_scope_;
    CoreCtx& c = enter(api, loc);
    if (id < 0 || id >= 8) fail("BAD_PARAM", api, loc, "event id %d is outside the valid range 0..7", id);
    const int e = static_cast<int>(evt);
    if (c.flag_set[e][id]) {
        warn("SYNC_MISMATCH", api, loc,
             "SetFlag<HardEvent::%s>(%d) while the flag is still set (no WaitFlag since the previous SetFlag)",
             event_name(evt), id);
    }
    Pipe s, d;
    event_pipes(evt, s, d);
    c.s_now += 1;
    c.flag_set[e][id] = true;
    c.flag_time[e][id] = std::max(pipe_time(c, s), c.s_now);
    c.flag_loc[e][id] = loc;
}

ASCEND_SIM_API void wait_flag(HardEvent evt, int32_t id, const char* api, const SrcLoc& loc) {
    const ::AscendC::sim::ApiScope api_scope_;
    CoreCtx& c = enter(api, loc);
    if (id < 0 || id >= 8) fail("BAD_PARAM", api, loc, "event id %d is outside the valid range 0..7", id);
    const int e = static_cast<int>(evt);
    if (!c.flag_set[e][id]) {
        fail("DEADLOCK", api, loc,
             "WaitFlag<HardEvent::%s>(%d) waits for a flag that no earlier SetFlag<HardEvent::%s>(%d) set: this core "
             "would wait forever",
             event_name(evt), id, event_name(evt), id);
    }
    Pipe s, d;
    event_pipes(evt, s, d);
    c.s_now += 1;
    pipe_wait(c, d, c.flag_time[e][id]);
    c.flag_set[e][id] = false;
}

ASCEND_SIM_API void pipe_barrier(pipe_t pipe, const SrcLoc& loc) {
    const ::AscendC::sim::ApiScope api_scope_;
    CoreCtx& c = enter("PipeBarrier", loc);
    if (pipe == PIPE_S) fail("BAD_PARAM", "PipeBarrier", loc, "PipeBarrier<PIPE_S> is illegal on the NPU (hardware error)");
    if (pipe == PIPE_ALL) {
        const uint64_t t = core_end_time(c);
        for (int p = 0; p < kPipeCount; ++p) c.pipe_free[p] = t;
        c.s_now = t;
        return;
    }
    // Pipes execute in order and the model does not overlap instructions inside one pipe, so a
    // single-pipe barrier only costs its issue slot.
    c.s_now += 1;
}

// ------------------------------------------------------------------------------------------
// Data movement
// ------------------------------------------------------------------------------------------
static inline uint64_t mte_cycles(uint32_t latency, double bpc, uint64_t bytes, uint32_t bursts,
                                  uint32_t burst_overhead) {
    const double t = static_cast<double>(bytes) / bpc;
    return latency + static_cast<uint64_t>(std::ceil(t)) +
           (bursts > 1 ? (bursts - 1) * static_cast<uint64_t>(burst_overhead) : 0);
}

ASCEND_SIM_API const char* dtype_name(DType d) {
    static const char* const names[] = {"half",    "bfloat16_t", "float",   "double",  "int8_t",
                                        "uint8_t", "int16_t",    "uint16_t", "int32_t", "uint32_t",
                                        "int64_t", "uint64_t",   "bool",    "?"};
    return names[static_cast<int>(d)];
}

template <typename T>
static inline void atomic_apply(int op, T* dst, const T* src, uint64_t n) {
    for (uint64_t i = 0; i < n; ++i) {
        if constexpr (std::is_integral<T>::value) {
            dst[i] = op == 1 ? static_cast<T>(dst[i] + src[i]) : (op == 2 ? std::max(dst[i], src[i]) : std::min(dst[i], src[i]));
        } else {
            const float a = to_f<T>(dst[i]);
            const float b = to_f<T>(src[i]);
            dst[i] = from_f<T>(op == 1 ? a + b : (op == 2 ? std::max(a, b) : std::min(a, b)));
        }
    }
}

ASCEND_SIM_API std::mutex& atomic_mutex() {
    static std::mutex m;
    return m;
}

// Writes n elements to global memory, honouring SetAtomicAdd/Max/Min.
ASCEND_SIM_API void gm_store(CoreCtx& c, void* dst, const void* src, uint64_t n, uint32_t esize, DType dt) {
    gm_mark(dst, n * esize);
    if (c.atomic_op == 0) {
        std::memcpy(dst, src, n * esize);
        return;
    }
    std::lock_guard<std::mutex> lk(atomic_mutex());
    switch (dt) {
        case DType::F16: atomic_apply(c.atomic_op, static_cast<half*>(dst), static_cast<const half*>(src), n); break;
        case DType::BF16:
            atomic_apply(c.atomic_op, static_cast<bfloat16_t*>(dst), static_cast<const bfloat16_t*>(src), n);
            break;
        case DType::F32: atomic_apply(c.atomic_op, static_cast<float*>(dst), static_cast<const float*>(src), n); break;
        case DType::I8: atomic_apply(c.atomic_op, static_cast<int8_t*>(dst), static_cast<const int8_t*>(src), n); break;
        case DType::I16: atomic_apply(c.atomic_op, static_cast<int16_t*>(dst), static_cast<const int16_t*>(src), n); break;
        case DType::I32: atomic_apply(c.atomic_op, static_cast<int32_t*>(dst), static_cast<const int32_t*>(src), n); break;
        default: std::memcpy(dst, src, n * esize); break;
    }
}

ASCEND_SIM_API void check_copy_len(uint64_t count, uint32_t esize, DType dt, const char* api, const SrcLoc& loc) {
    const uint64_t bytes = count * esize;
    if (bytes % ONE_BLK_SIZE != 0) {
        fail("COPY_ALIGN", api, loc,
             "DataCopy of %llu elements of %s = %llu bytes is not a whole number of 32-byte blocks; the NPU silently "
             "rounds it down to %llu bytes. Copy a multiple of %u elements or use DataCopyPad",
             static_cast<unsigned long long>(count), dtype_name(dt), static_cast<unsigned long long>(bytes),
             static_cast<unsigned long long>(bytes / ONE_BLK_SIZE * ONE_BLK_SIZE), ONE_BLK_SIZE / esize);
    }
}

ASCEND_SIM_API void copy_gm_to_ub(const TensorRef& dst, const void* gm, uint64_t count, uint32_t esize, DType dt,
                                  const SrcLoc& loc) {
    const ::AscendC::sim::ApiScope api_scope_;
    CoreCtx& c = enter("DataCopy", loc);
    const uint64_t bytes = count * esize;
    check_copy_len(count, esize, dt, "DataCopy", loc);
    LocalView d = view_raw(dst, "DataCopy", "dst (LocalTensor)", loc, ONE_BLK_SIZE, kHwUB | hw_bit(Hardware::L1));
    need(d, bytes, "DataCopy", "dst (LocalTensor)", loc);
    check_gm(gm, bytes, false, "DataCopy", loc);
    std::memcpy(d.data, gm, bytes);
    mark_written(d, 0, bytes);
    if (d.blk->hw == Hardware::L1) {  // GM -> L1 (A1/B1/C1): the cube's load path
        l2_touch(gm, bytes);
        c.l1_read += bytes;
        charge(c, Pipe::MTE2, l1_load_cycles(c, bytes), "DataCopy", loc, {{d.blk, true}});
        return;
    }
    c.gm_read += bytes;
    charge(c, Pipe::MTE2, mte_cycles(c.soc->mte2_latency, c.mte2_bpc, bytes, 1, 0), "DataCopy", loc, {{d.blk, true}});
}

ASCEND_SIM_API void copy_ub_to_gm(void* gm, const TensorRef& src, uint64_t count, uint32_t esize, DType dt,
                                  const SrcLoc& loc) {
    const ::AscendC::sim::ApiScope api_scope_;
    CoreCtx& c = enter("DataCopy", loc);
    const uint64_t bytes = count * esize;
    check_copy_len(count, esize, dt, "DataCopy", loc);
    LocalView s = view_raw(src, "DataCopy", "src (LocalTensor)", loc, ONE_BLK_SIZE, kHwUB | hw_bit(Hardware::L1));
    need(s, bytes, "DataCopy", "src (LocalTensor)", loc);
    check_init(s, 0, bytes, "DataCopy", "src (LocalTensor)", loc);
    check_gm(gm, bytes, true, "DataCopy", loc);
    gm_store(c, gm, s.data, count, esize, dt);
    c.gm_write += bytes;
    charge(c, Pipe::MTE3, mte_cycles(c.soc->mte3_latency, c.mte3_bpc, bytes, 1, 0), "DataCopy", loc, {{s.blk, false}});
}

ASCEND_SIM_API void gm_fill(void* gm, const void* value, uint64_t count, uint32_t esize, DType dt, const char* api,
                            const SrcLoc& loc) {
    const ::AscendC::sim::ApiScope api_scope_;
    CoreCtx& c = enter(api, loc);
    const uint64_t bytes = count * esize;
    if (bytes == 0) return;
    check_gm(gm, bytes, true, api, loc);
    std::vector<uint8_t> chunk(std::min<uint64_t>(bytes, 1u << 16));
    for (uint64_t i = 0; i < chunk.size() / esize; ++i) std::memcpy(chunk.data() + i * esize, value, esize);
    const uint64_t per = chunk.size() / esize;
    for (uint64_t done = 0; done < count; done += per) {
        const uint64_t n = std::min<uint64_t>(per, count - done);
        gm_store(c, static_cast<uint8_t*>(gm) + done * esize, chunk.data(), n, esize, dt);
    }
    c.gm_write += bytes;
    const auto& vc = c.soc->vec[static_cast<int>(VecClass::UNARY)];
    const uint64_t reps = (std::min<uint64_t>(bytes, c.ub.size()) + 255) / 256;
    charge(c, Pipe::V, vc.startup_b32 + (reps ? reps - 1 : 0) * vc.per_repeat_b32, api, loc, {});
    charge(c, Pipe::MTE3, mte_cycles(c.soc->mte3_latency, c.mte3_bpc, bytes, 1, 0), api, loc, {});
}

ASCEND_SIM_API void copy_ub_to_ub(const TensorRef& dst, const TensorRef& src, uint64_t count, uint32_t esize,
                                  const SrcLoc& loc) {
    const ::AscendC::sim::ApiScope api_scope_;
    CoreCtx& c = enter("DataCopy", loc);
    const uint64_t bytes = count * esize;
    check_copy_len(count, esize, DType::OTHER, "DataCopy", loc);
    LocalView d = view_raw(dst, "DataCopy", "dst (LocalTensor)", loc, ONE_BLK_SIZE,
                           kHwUB | hw_bit(Hardware::L1) | hw_bit(Hardware::BIAS));
    const bool to_bt = d.blk->hw == Hardware::BIAS;
    LocalView s = view_raw(src, "DataCopy", "src (LocalTensor)", loc, ONE_BLK_SIZE,
                           to_bt ? hw_bit(Hardware::L1) : kHwUB);
    need(d, bytes, "DataCopy", "dst (LocalTensor)", loc);
    need(s, bytes, "DataCopy", "src (LocalTensor)", loc);
    check_init(s, 0, bytes, "DataCopy", "src (LocalTensor)", loc);
    std::memmove(d.data, s.data, bytes);
    mark_written(d, 0, bytes);
    if (to_bt || d.blk->hw == Hardware::L1) {  // L1 -> bias table (MTE1) or UB -> L1 (MTE3)
        const Pipe p = to_bt ? Pipe::MTE1 : Pipe::MTE3;
        charge(c, p, c.soc->mte1_latency + (bytes + 63) / 64, "DataCopy", loc, {{s.blk, false}, {d.blk, true}});
        return;
    }
    const auto& vc = c.soc->vec[static_cast<int>(VecClass::COPY)];
    const uint64_t reps = (bytes + 255) / 256;
    charge(c, Pipe::V, vc.startup_b32 + (reps ? reps - 1 : 0) * vc.per_repeat_b32, "DataCopy", loc,
           {{s.blk, false}, {d.blk, true}});
}

static inline void copy_params_check(const DataCopyParams& p, const char* api, const SrcLoc& loc) {
    if (p.blockCount > MAX_BLOCK_COUNT) {
        fail("BAD_PARAM", api, loc, "DataCopyParams.blockCount is %u, valid range is 0 ~ %d", p.blockCount,
             MAX_BLOCK_COUNT);
    }
}

ASCEND_SIM_API void copy_gm_to_ub_params(const TensorRef& dst, const void* gm, const DataCopyParams& p,
                                         const SrcLoc& loc) {
    const ::AscendC::sim::ApiScope api_scope_;
    CoreCtx& c = enter("DataCopy", loc);
    copy_params_check(p, "DataCopy", loc);
    if (p.blockCount == 0 || p.blockLen == 0) return;
    LocalView d = view_raw(dst, "DataCopy", "dst (LocalTensor)", loc, ONE_BLK_SIZE, kHwUB | hw_bit(Hardware::L1));
    const uint64_t burst = static_cast<uint64_t>(p.blockLen) * ONE_BLK_SIZE;
    const uint64_t sstep = (static_cast<uint64_t>(p.blockLen) + p.srcGap) * ONE_BLK_SIZE;
    const uint64_t dstep = (static_cast<uint64_t>(p.blockLen) + p.dstGap) * ONE_BLK_SIZE;
    need(d, (p.blockCount - 1) * dstep + burst, "DataCopy", "dst (LocalTensor)", loc);
    const uint8_t* s = static_cast<const uint8_t*>(gm);
    const bool to_l1 = d.blk->hw == Hardware::L1;
    for (uint32_t i = 0; i < p.blockCount; ++i) {
        check_gm(s + i * sstep, burst, false, "DataCopy", loc);
        std::memcpy(d.data + i * dstep, s + i * sstep, burst);
        mark_written(d, i * dstep, burst);
        if (to_l1) l2_touch(s + i * sstep, burst);
    }
    const uint64_t bytes = burst * p.blockCount;
    if (to_l1) {
        c.l1_read += bytes;
        charge(c, Pipe::MTE2, l1_load_cycles(c, bytes), "DataCopy", loc, {{d.blk, true}});
        return;
    }
    c.gm_read += bytes;
    charge(c, Pipe::MTE2, mte_cycles(c.soc->mte2_latency, c.mte2_bpc, bytes, p.blockCount, c.soc->burst_overhead),
           "DataCopy", loc, {{d.blk, true}});
}

ASCEND_SIM_API void copy_ub_to_gm_params(void* gm, const TensorRef& src, const DataCopyParams& p, uint32_t esize,
                                         DType dt, const SrcLoc& loc) {
    const ::AscendC::sim::ApiScope api_scope_;
    CoreCtx& c = enter("DataCopy", loc);
    copy_params_check(p, "DataCopy", loc);
    if (p.blockCount == 0 || p.blockLen == 0) return;
    LocalView s = view_raw(src, "DataCopy", "src (LocalTensor)", loc, ONE_BLK_SIZE);
    const uint64_t burst = static_cast<uint64_t>(p.blockLen) * ONE_BLK_SIZE;
    const uint64_t sstep = (static_cast<uint64_t>(p.blockLen) + p.srcGap) * ONE_BLK_SIZE;
    const uint64_t dstep = (static_cast<uint64_t>(p.blockLen) + p.dstGap) * ONE_BLK_SIZE;
    need(s, (p.blockCount - 1) * sstep + burst, "DataCopy", "src (LocalTensor)", loc);
    uint8_t* g = static_cast<uint8_t*>(gm);
    for (uint32_t i = 0; i < p.blockCount; ++i) {
        check_gm(g + i * dstep, burst, true, "DataCopy", loc);
        check_init(s, i * sstep, burst, "DataCopy", "src (LocalTensor)", loc);
        gm_store(c, g + i * dstep, s.data + i * sstep, burst / esize, esize, dt);
    }
    const uint64_t bytes = burst * p.blockCount;
    c.gm_write += bytes;
    charge(c, Pipe::MTE3, mte_cycles(c.soc->mte3_latency, c.mte3_bpc, bytes, p.blockCount, c.soc->burst_overhead),
           "DataCopy", loc, {{s.blk, false}});
}

ASCEND_SIM_API void copy_ub_to_ub_params(const TensorRef& dst, const TensorRef& src, const DataCopyParams& p,
                                         const SrcLoc& loc) {
    const ::AscendC::sim::ApiScope api_scope_;
    CoreCtx& c = enter("DataCopy", loc);
    copy_params_check(p, "DataCopy", loc);
    if (p.blockCount == 0 || p.blockLen == 0) return;
    LocalView d = view_raw(dst, "DataCopy", "dst (LocalTensor)", loc, ONE_BLK_SIZE);
    LocalView s = view_raw(src, "DataCopy", "src (LocalTensor)", loc, ONE_BLK_SIZE);
    const uint64_t burst = static_cast<uint64_t>(p.blockLen) * ONE_BLK_SIZE;
    const uint64_t sstep = (static_cast<uint64_t>(p.blockLen) + p.srcGap) * ONE_BLK_SIZE;
    const uint64_t dstep = (static_cast<uint64_t>(p.blockLen) + p.dstGap) * ONE_BLK_SIZE;
    need(d, (p.blockCount - 1) * dstep + burst, "DataCopy", "dst (LocalTensor)", loc);
    need(s, (p.blockCount - 1) * sstep + burst, "DataCopy", "src (LocalTensor)", loc);
    for (uint32_t i = 0; i < p.blockCount; ++i) {
        check_init(s, i * sstep, burst, "DataCopy", "src (LocalTensor)", loc);
        std::memmove(d.data + i * dstep, s.data + i * sstep, burst);
        mark_written(d, i * dstep, burst);
    }
    const auto& vc = c.soc->vec[static_cast<int>(VecClass::COPY)];
    const uint64_t reps = (burst * p.blockCount + 255) / 256;
    charge(c, Pipe::V, vc.startup_b32 + (reps ? reps - 1 : 0) * vc.per_repeat_b32, "DataCopy", loc,
           {{s.blk, false}, {d.blk, true}});
}

// DataCopyPad GM -> UB: bursts of `len` bytes, each landing in UB padded up to 32 bytes.
ASCEND_SIM_API void pad_copy_in(const TensorRef& dst, const void* gm, uint32_t count, uint32_t len,
                                uint64_t src_stride_bytes, uint64_t dst_stride_blocks, bool is_pad, uint32_t left,
                                uint32_t right, const void* pad_value, uint32_t esize, const SrcLoc& loc) {
    const ::AscendC::sim::ApiScope api_scope_;
    CoreCtx& c = enter("DataCopyPad", loc);
    if (!c.soc->has_datacopypad) fail("UNSUPPORTED", "DataCopyPad", loc, "DataCopyPad is not supported on %s", c.soc->name);
    if (count == 0 || len == 0) return;
    if (len % esize != 0) {
        fail("BAD_PARAM", "DataCopyPad", loc, "blockLen %u bytes is not a multiple of the element size %u", len, esize);
    }
    if (left * esize > 32 || right * esize > 32) {
        fail("BAD_PARAM", "DataCopyPad", loc, "leftPadding/rightPadding (%u/%u elements) must each be at most 32 bytes",
             left, right);
    }
    LocalView d = view_raw(dst, "DataCopyPad", "dst (LocalTensor)", loc, ONE_BLK_SIZE, kHwUB | hw_bit(Hardware::L1));
    const uint64_t row = (static_cast<uint64_t>(left + right) * esize + len + 31) / 32 * 32;
    const uint64_t dstep = row + dst_stride_blocks * 32;
    const uint64_t sstep = static_cast<uint64_t>(len) + src_stride_bytes;
    need(d, (count - 1) * dstep + row, "DataCopyPad", "dst (LocalTensor)", loc);
    const uint8_t* g = static_cast<const uint8_t*>(gm);
    for (uint32_t i = 0; i < count; ++i) {
        check_gm(g + i * sstep, len, false, "DataCopyPad", loc);
        uint8_t* out = d.data + i * dstep;
        if (is_pad) {
            for (uint32_t k = 0; k < left; ++k) std::memcpy(out + k * esize, pad_value, esize);
            for (uint32_t k = 0; k < right; ++k) std::memcpy(out + left * esize + len + k * esize, pad_value, esize);
        }
        std::memcpy(out + left * esize, g + i * sstep, len);
        mark_written(d, i * dstep, row);
    }
    const uint64_t gm_bytes = static_cast<uint64_t>(count) * ((len + 31) / 32 * 32);
    if (d.blk->hw == Hardware::L1) {  // GM -> L1 (A1/B1/C1) on 910B
        for (uint32_t i = 0; i < count; ++i) l2_touch(g + i * sstep, len);
        c.l1_read += gm_bytes;
        charge(c, Pipe::MTE2, l1_load_cycles(c, gm_bytes), "DataCopyPad", loc, {{d.blk, true}});
        return;
    }
    c.gm_read += gm_bytes;
    charge(c, Pipe::MTE2, mte_cycles(c.soc->mte2_latency, c.mte2_bpc, gm_bytes, count, c.soc->burst_overhead),
           "DataCopyPad", loc, {{d.blk, true}});
}

// DataCopyPad UB -> GM: only the `len` real bytes of each 32-byte-padded UB row are written.
ASCEND_SIM_API void pad_copy_out(void* gm, const TensorRef& src, uint32_t count, uint32_t len,
                                 uint64_t src_stride_blocks, uint64_t dst_stride_bytes, uint32_t esize, DType dt,
                                 const SrcLoc& loc) {
    const ::AscendC::sim::ApiScope api_scope_;
    CoreCtx& c = enter("DataCopyPad", loc);
    if (!c.soc->has_datacopypad) fail("UNSUPPORTED", "DataCopyPad", loc, "DataCopyPad is not supported on %s", c.soc->name);
    if (count == 0 || len == 0) return;
    if (len % esize != 0) {
        fail("BAD_PARAM", "DataCopyPad", loc, "blockLen %u bytes is not a multiple of the element size %u", len, esize);
    }
    LocalView s = view_raw(src, "DataCopyPad", "src (LocalTensor)", loc, ONE_BLK_SIZE);
    const uint64_t row = (static_cast<uint64_t>(len) + 31) / 32 * 32;
    const uint64_t sstep = row + src_stride_blocks * 32;
    const uint64_t dstep = static_cast<uint64_t>(len) + dst_stride_bytes;
    need(s, (count - 1) * sstep + len, "DataCopyPad", "src (LocalTensor)", loc);
    uint8_t* g = static_cast<uint8_t*>(gm);
    for (uint32_t i = 0; i < count; ++i) {
        check_gm(g + i * dstep, len, true, "DataCopyPad", loc);
        check_init(s, i * sstep, len, "DataCopyPad", "src (LocalTensor)", loc);
        gm_store(c, g + i * dstep, s.data + i * sstep, len / esize, esize, dt);
    }
    const uint64_t gm_bytes = static_cast<uint64_t>(count) * row;
    c.gm_write += gm_bytes;
    charge(c, Pipe::MTE3, mte_cycles(c.soc->mte3_latency, c.mte3_bpc, gm_bytes, count, c.soc->burst_overhead),
           "DataCopyPad", loc, {{s.blk, false}});
}

ASCEND_SIM_API void set_atomic(int op) {
    if (tl_core) tl_core->atomic_op = op;
}

}  // namespace sim
}  // namespace AscendC

#include "cube_impl.h"
#include "scalar_hooks.h"
#include "kernel_seccomp.h"
