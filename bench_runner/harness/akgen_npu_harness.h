// akgen_npu_harness.h — the fixed driver for a real Ascend NPU (the `cann` toolchain).
//
// Same manifest and result stream as the cpu-sim driver (akgen_manifest.h), but buffers live in
// device memory, the kernel is launched with <<<>>> on an ACL stream, and the listed trial's
// report carries device-event timings: 10 warm-up launches, then 100 timed launches, each
// preceded (outside the event pair) by a 256 MiB device memset that evicts the L2 cache; the
// median is the kernel time. UNVERIFIED ON HARDWARE in this repository (no NPU in CI).
#pragma once

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "akgen_manifest.h"

#ifndef AKGEN_WARMUP
#define AKGEN_WARMUP 10
#endif
#ifndef AKGEN_TIMED_RUNS
#define AKGEN_TIMED_RUNS 100
#endif
#ifndef AKGEN_FLUSH_BYTES
#define AKGEN_FLUSH_BYTES (256ull << 20)
#endif

namespace akgen_npu {

using akgen_manifest::REC_BUFFER;
using akgen_manifest::REC_REPORT;
using akgen_manifest::REC_STATUS;
using akgen_manifest::REC_TILING;
using akgen_manifest::REC_TRIAL_DONE;

struct Buffer {
    std::string name;
    std::vector<uint8_t> host;
    void* dev = nullptr;
};

class Driver {
  public:
    Driver(int argc, char** argv) {
        std::string err;
        if (argc < 2) out_.die("manifest", "usage: prog MANIFEST");
        if (!akgen_manifest::parse(argv[1], m_, err)) out_.die("manifest", err);
        if (!m_.lists.empty()) {  // the cpu-sim driver builds list descriptors (akgen_harness.h)
            out_.die("manifest", "tensor lists (DYNAMIC inputs) are not supported by the NPU driver yet");
        }
        out_.fd = m_.result_fd;
        check(aclInit(nullptr), "aclInit");
        check(aclrtSetDevice(0), "aclrtSetDevice");
        check(aclrtCreateStream(&stream_), "aclrtCreateStream");
    }

    bool next_trial() {
        release();
        ++current_;
        out_.trial = static_cast<uint32_t>(current_);
        return current_ < static_cast<int>(m_.trials.size());
    }

    bool listed() const { return current_ == 0; }
    aclrtStream stream() const { return stream_; }
    uint32_t block_dim() const { return block_dim_; }

    void prepare() {
        for (const auto& ref : m_.trials[static_cast<size_t>(current_)]) {
            Buffer b;
            b.name = ref.name;
            b.host = read_file(ref.path);
            b.dev = device_copy(b.host.data(), b.host.size());
            bufs_.push_back(std::move(b));
        }
        block_dim_ = m_.block_dim;
#ifdef AKGEN_HAS_HOST
        gert::TilingContext ctx(m_.tiling_capacity);
        akgen_manifest::fill_context(ctx, m_);
        const std::string problem = akgen_manifest::check_tiling(ctx, akgen_call_tiling(&ctx), m_.block_dim);
        if (!problem.empty()) out_.die("tiling", problem);
        block_dim_ = ctx.GetBlockDim();
        auto* raw = ctx.GetRawTilingData();
        const size_t n = raw->GetDataSize() ? raw->GetDataSize() : raw->GetCapacity();
        tiling_ = device_copy(raw->GetData(), n);
        const size_t ws = ctx.workspace_.empty() ? 0 : ctx.workspace_[0];
        // CANN reserves a 16 MiB system workspace in front of the user's.
        std::vector<uint8_t> fill((16u << 20) + ws, 0xA5);
        workspace_ = device_copy(fill.data(), fill.size());
#endif
        if (block_dim_ == 0) out_.die("tiling", "TilingFunc did not call context->SetBlockDim(n) with n >= 1");
    }

    uint8_t* gm(const char* name) {
        if (std::strcmp(name, "workspace") == 0) return static_cast<uint8_t*>(workspace_);
        if (std::strcmp(name, "tiling") == 0) return static_cast<uint8_t*>(tiling_);
        for (auto& b : bufs_) {
            if (b.name == name) return static_cast<uint8_t*>(b.dev);
        }
        out_.die("manifest", std::string("no buffer named ") + name);
    }

    void sync() { check(aclrtSynchronizeStream(stream_), "aclrtSynchronizeStream (the kernel failed)"); }

    // Copies results back, then (listed trial only) times the kernel.
    template <typename Launch>
    void finish_trial(Launch&& launch) {
        for (auto& b : bufs_) {
            check(aclrtMemcpy(b.host.data(), b.host.size(), b.dev, b.host.size(), ACL_MEMCPY_DEVICE_TO_HOST),
                  "aclrtMemcpy D2H");
            out_.emit(REC_BUFFER, b.name, b.host.data(), b.host.size());
        }
        if (listed()) {
            const std::string report = time_kernel(launch);
            out_.emit(REC_REPORT, "report", report.data(), report.size());
        }
        out_.emit(REC_TRIAL_DONE, "done", nullptr, 0);
    }

    int done() {
        release();
        aclrtDestroyStream(stream_);
        aclrtResetDevice(0);
        aclFinalize();
        out_.trial = 0;
        out_.emit(REC_STATUS, "ok", nullptr, 0);
        return 0;
    }

  private:
    void check(aclError rc, const char* what) {
        if (rc != ACL_SUCCESS) out_.die("acl", std::string(what) + " failed with error " + std::to_string(rc));
    }

    std::vector<uint8_t> read_file(const std::string& path) {
        std::vector<uint8_t> data;
        const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        struct stat st;
        if (fd < 0 || fstat(fd, &st) != 0) out_.die("io", "cannot open input " + path);
        data.resize(static_cast<size_t>(st.st_size));
        size_t got = 0;
        while (got < data.size()) {
            const ssize_t k = ::read(fd, data.data() + got, data.size() - got);
            if (k <= 0) out_.die("io", "short read of " + path);
            got += static_cast<size_t>(k);
        }
        ::close(fd);
        return data;
    }

    void* device_copy(const void* src, size_t n) {
        void* dev = nullptr;
        check(aclrtMalloc(&dev, n ? n : 32, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc");
        if (n) check(aclrtMemcpy(dev, n, src, n, ACL_MEMCPY_HOST_TO_DEVICE), "aclrtMemcpy H2D");
        owned_.push_back(dev);
        return dev;
    }

    template <typename Launch>
    std::string time_kernel(Launch&& launch) {
        void* flush = nullptr;
        check(aclrtMalloc(&flush, AKGEN_FLUSH_BYTES, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc(flush)");
        aclrtEvent start, stop;
        check(aclrtCreateEvent(&start), "aclrtCreateEvent");
        check(aclrtCreateEvent(&stop), "aclrtCreateEvent");
        for (int i = 0; i < AKGEN_WARMUP; ++i) launch();
        sync();
        std::vector<float> us;
        for (int i = 0; i < AKGEN_TIMED_RUNS; ++i) {
            check(aclrtMemsetAsync(flush, AKGEN_FLUSH_BYTES, i & 0xFF, AKGEN_FLUSH_BYTES, stream_), "flush");
            check(aclrtRecordEvent(start, stream_), "aclrtRecordEvent");
            launch();
            check(aclrtRecordEvent(stop, stream_), "aclrtRecordEvent");
            check(aclrtSynchronizeEvent(stop), "aclrtSynchronizeEvent");
            float ms = 0;
            check(aclrtEventElapsedTime(&ms, start, stop), "aclrtEventElapsedTime");
            us.push_back(ms * 1000.0f);
        }
        aclrtDestroyEvent(start);
        aclrtDestroyEvent(stop);
        aclrtFree(flush);
        std::vector<float> sorted = us;
        std::sort(sorted.begin(), sorted.end());
        std::string out = "{\"timing\": \"device_events\", \"warmup\": " + std::to_string(AKGEN_WARMUP) +
                          ", \"runs\": " + std::to_string(AKGEN_TIMED_RUNS) +
                          ", \"flush_bytes\": " + std::to_string(AKGEN_FLUSH_BYTES) + ", \"block_dim\": " +
                          std::to_string(block_dim_) + ", \"est_us\": " + std::to_string(sorted[sorted.size() / 2]) +
                          ", \"total_cycles\": null, \"samples_us\": [";
        for (size_t i = 0; i < us.size(); ++i) out += (i ? ", " : "") + std::to_string(us[i]);
        return out + "], \"findings\": []}";
    }

    void release() {
        for (void* p : owned_) aclrtFree(p);
        owned_.clear();
        bufs_.clear();
        workspace_ = tiling_ = nullptr;
    }

    akgen_manifest::Manifest m_;
    akgen_manifest::Stream out_;
    aclrtStream stream_ = nullptr;
    std::vector<Buffer> bufs_;
    std::vector<void*> owned_;
    int current_ = -1;
    uint32_t block_dim_ = 0;
    void* workspace_ = nullptr;
    void* tiling_ = nullptr;
};

}  // namespace akgen_npu
