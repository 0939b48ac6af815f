// akgen_harness.h — the fixed driver around a kernel under test on cpu-sim.
//
// The evaluator generates a main.cpp per task that includes this header, the task's host
// tiling (if any) and a launch line for the kernel. At run time the driver reads a manifest
// written by the evaluator, and for each trial: loads every GM buffer from a file (inputs, and
// outputs pre-filled with poison), runs the host tiling, launches the kernel with ICPU_RUN_KF,
// and streams every buffer plus the emulator's report to a result descriptor the evaluator
// opened. It never judges: comparison with the golden happens in the evaluator, so nothing a
// kernel prints can make it pass.
//
// Result stream records: "AKGR" u32 kind, u32 trial, u32 name_len, u64 payload_len, name, payload.
#pragma once

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "akgen_host.h"
#include "tikicpulib.h"

namespace akgen_harness {

enum RecordKind : uint32_t { REC_BUFFER = 1, REC_REPORT = 2, REC_STATUS = 3, REC_TILING = 4, REC_TRIAL_DONE = 5 };
// Exit status when the harness itself refuses to go on (bad manifest, tiling failure).
constexpr int kHarnessExit = 4;

struct Tensor {
    std::string name, dtype;
    std::vector<int64_t> shape;
};

struct Buffer {
    std::string name, path;
    uint8_t* gm = nullptr;
    uint64_t bytes = 0;
};

inline ge::DataType dtype_enum(const std::string& d) {
    if (d == "float32") return ge::DT_FLOAT;
    if (d == "float16") return ge::DT_FLOAT16;
    if (d == "bfloat16") return ge::DT_BF16;
    if (d == "int8") return ge::DT_INT8;
    if (d == "uint8") return ge::DT_UINT8;
    if (d == "int16") return ge::DT_INT16;
    if (d == "int32") return ge::DT_INT32;
    if (d == "int64") return ge::DT_INT64;
    if (d == "bool") return ge::DT_BOOL;
    return ge::DT_UNDEFINED;
}

class Harness {
  public:
    Harness(int argc, char** argv) {
        if (argc < 2) die("manifest", "usage: prog MANIFEST");
        parse(argv[1]);
    }

    bool next_trial() {
        free_trial();
        ++current_;
        return current_ < static_cast<int>(trials_.size());
    }

    // Loads the trial's buffers and runs the host tiling. Returns the launch width.
    void prepare() {
        auto& bufs = trials_[static_cast<size_t>(current_)];
        for (auto& b : bufs) load(b);
        run_tiling();
        if (block_dim_ == 0) die("tiling", "TilingFunc did not call context->SetBlockDim(n) with n >= 1");
    }

    uint8_t* gm(const char* name) {
        if (std::strcmp(name, "workspace") == 0) return workspace_;
        if (std::strcmp(name, "tiling") == 0) return tiling_;
        for (auto& b : trials_[static_cast<size_t>(current_)]) {
            if (b.name == name) return b.gm;
        }
        die("manifest", std::string("no buffer named ") + name);
        return nullptr;
    }

    uint32_t block_dim() const { return block_dim_; }
    bool has_tiling_key() const { return has_tiling_key_; }
    uint64_t tiling_key() const { return tiling_key_; }

    // After the launch: stream every buffer and the emulator's report.
    void finish_trial() {
        for (auto& b : trials_[static_cast<size_t>(current_)]) {
            emit(REC_BUFFER, b.name, b.gm, b.bytes);
        }
        if (!report_path_.empty()) {
            std::ifstream in(report_path_, std::ios::binary);
            std::stringstream ss;
            ss << in.rdbuf();
            const std::string text = ss.str();
            emit(REC_REPORT, "report", text.data(), text.size());
        }
        emit(REC_TRIAL_DONE, "done", nullptr, 0);
    }

    int done() {
        emit(REC_STATUS, "ok", nullptr, 0);
        return 0;
    }

  private:
    [[noreturn]] void die(const std::string& code, const std::string& msg) {
        std::fprintf(stderr, "[AKGEN][%s] %s\n", code.c_str(), msg.c_str());
        if (fd_ >= 0) emit(REC_STATUS, code, msg.data(), msg.size());
        std::fflush(stderr);
        std::_Exit(kHarnessExit);
    }

    void emit(uint32_t kind, const std::string& name, const void* data, uint64_t n) {
        if (fd_ < 0) return;
        char hdr[4 + 4 + 4 + 4 + 8];
        std::memcpy(hdr, "AKGR", 4);
        const uint32_t trial = static_cast<uint32_t>(current_ < 0 ? 0 : current_);
        const uint32_t name_len = static_cast<uint32_t>(name.size());
        std::memcpy(hdr + 4, &kind, 4);
        std::memcpy(hdr + 8, &trial, 4);
        std::memcpy(hdr + 12, &name_len, 4);
        std::memcpy(hdr + 16, &n, 8);
        write_all(hdr, sizeof hdr);
        write_all(name.data(), name.size());
        if (n) write_all(data, n);
    }

    void write_all(const void* p, uint64_t n) {
        const auto* c = static_cast<const char*>(p);
        while (n > 0) {
            const ssize_t k = ::write(fd_, c, n > (1u << 30) ? (1u << 30) : n);
            if (k < 0 && errno == EINTR) continue;
            if (k <= 0) {
                std::fprintf(stderr, "[AKGEN][io] cannot write results: %s\n", std::strerror(errno));
                std::_Exit(kHarnessExit);
            }
            c += k;
            n -= static_cast<uint64_t>(k);
        }
    }

    void parse(const char* path) {
        std::ifstream in(path);
        if (!in) die("manifest", std::string("cannot open manifest ") + path);
        std::string word;
        in >> word;
        int version = 0;
        in >> version;
        if (word != "akgen-manifest" || version != 1) die("manifest", "not an akgen manifest v1");
        while (in >> word) {
            if (word == "result_fd") {
                in >> fd_;
            } else if (word == "report") {
                in >> report_path_;
            } else if (word == "block_dim") {
                in >> block_dim_fixed_;
            } else if (word == "tiling_capacity") {
                in >> tiling_capacity_;
            } else if (word == "platform") {
                in >> platform_.aiv_cores >> platform_.aic_cores >> platform_.ub_bytes >> platform_.soc;
            } else if (word == "input" || word == "output") {
                Tensor t;
                size_t nd = 0;
                in >> t.name >> t.dtype >> nd;
                t.shape.resize(nd);
                for (auto& d : t.shape) in >> d;
                (word == "input" ? inputs_ : outputs_).push_back(t);
            } else if (word == "attr") {
                gert::RuntimeAttrs::Attr a;
                std::string kind, value;
                in >> kind >> a.name >> value;
                a.s = value;
                if (kind == "int" || kind == "bool") {
                    a.i = std::strtoll(value.c_str(), nullptr, 10);
                    a.f = static_cast<float>(a.i);
                    a.b = a.i != 0;
                } else if (kind == "float") {
                    a.f = std::strtof(value.c_str(), nullptr);
                    a.i = static_cast<int64_t>(a.f);
                }
                attrs_.push_back(a);
            } else if (word == "trial") {
                int idx = 0;
                in >> idx;
                trials_.emplace_back();
            } else if (word == "buf") {
                Buffer b;
                in >> b.name >> b.path;
                if (trials_.empty()) die("manifest", "buf before trial");
                trials_.back().push_back(b);
            } else if (word == "end") {
                break;
            } else {
                die("manifest", "unknown manifest word " + word);
            }
        }
        if (fd_ < 0) {
            // The sandbox hands over the result descriptor and announces it in the environment.
            const char* env = std::getenv("AKGEN_FD_0");
            if (env) fd_ = std::atoi(env);
        }
        if (fd_ < 0) die("manifest", "no result_fd and no AKGEN_FD_0");
    }

    void load(Buffer& b) {
        const int fd = ::open(b.path.c_str(), O_RDONLY | O_CLOEXEC);
        struct stat st;
        if (fd < 0 || fstat(fd, &st) != 0) die("io", "cannot open input " + b.path);
        b.bytes = static_cast<uint64_t>(st.st_size);
        b.gm = static_cast<uint8_t*>(AscendC::GmAlloc(b.bytes ? b.bytes : 32));
        uint64_t got = 0;
        while (got < b.bytes) {
            const ssize_t k = ::read(fd, b.gm + got, b.bytes - got);
            if (k < 0 && errno == EINTR) continue;
            if (k <= 0) die("io", "short read of " + b.path);
            got += static_cast<uint64_t>(k);
        }
        ::close(fd);
    }

    void run_tiling();

    void free_trial() {
        if (current_ >= 0 && current_ < static_cast<int>(trials_.size())) {
            for (auto& b : trials_[static_cast<size_t>(current_)]) {
                if (b.gm) AscendC::GmFree(b.gm);
                b.gm = nullptr;
            }
        }
        if (workspace_) AscendC::GmFree(workspace_);
        if (tiling_) AscendC::GmFree(tiling_);
        workspace_ = tiling_ = nullptr;
    }

    int fd_ = -1;
    int current_ = -1;
    std::string report_path_;
    uint32_t block_dim_fixed_ = 0;
    uint32_t block_dim_ = 0;
    size_t tiling_capacity_ = 16384;
    bool has_tiling_key_ = false;
    uint64_t tiling_key_ = 0;
    gert::PlatformInfo platform_;
    std::vector<Tensor> inputs_, outputs_;
    std::vector<gert::RuntimeAttrs::Attr> attrs_;
    std::vector<std::vector<Buffer>> trials_;
    uint8_t* workspace_ = nullptr;
    uint8_t* tiling_ = nullptr;
};

}  // namespace akgen_harness

// The generated main.cpp defines AKGEN_HAS_HOST when the task has host tiling. The host file is
// compiled in its own translation unit (host_tu.cpp), which exports its TilingFunc (often
// declared static, as in CANN op hosts) under this name.
#ifdef AKGEN_HAS_HOST
ge::graphStatus akgen_call_tiling(gert::TilingContext* context);

inline void akgen_harness::Harness::run_tiling() {
    gert::TilingContext ctx(tiling_capacity_);
    for (const auto& t : inputs_) {
        ctx.inputs_.emplace_back(gert::Shape(t.shape));
        ctx.in_desc_.emplace_back(dtype_enum(t.dtype));
    }
    for (const auto& t : outputs_) {
        ctx.outputs_.emplace_back(gert::Shape(t.shape));
        ctx.out_desc_.emplace_back(dtype_enum(t.dtype));
    }
    ctx.attrs_.mutable_attrs() = attrs_;
    ctx.platform_ = platform_;
    ctx.block_dim_ = block_dim_fixed_;
    const ge::graphStatus st = akgen_call_tiling(&ctx);
    if (st != ge::GRAPH_SUCCESS) die("tiling", "TilingFunc returned " + std::to_string(st) + " instead of GRAPH_SUCCESS");
    block_dim_ = ctx.GetBlockDim();
    if (block_dim_fixed_ != 0 && block_dim_ != block_dim_fixed_) {
        die("tiling", "TilingFunc changed the block dim to " + std::to_string(block_dim_) +
                          " but this task launches exactly " + std::to_string(block_dim_fixed_));
    }
    if (block_dim_ < 1 || block_dim_ > 65535) die("tiling", "SetBlockDim(" + std::to_string(block_dim_) + ") is outside [1, 65535]");
    auto* raw = ctx.GetRawTilingData();
    if (raw->GetDataSize() > raw->GetCapacity()) {
        die("tiling", "tiling data size " + std::to_string(raw->GetDataSize()) + " exceeds the capacity " +
                          std::to_string(raw->GetCapacity()));
    }
    const size_t n = raw->GetDataSize() ? raw->GetDataSize() : raw->GetCapacity();
    tiling_ = static_cast<uint8_t*>(AscendC::GmAlloc(n));
    std::memcpy(tiling_, raw->GetData(), n);
    const size_t ws = ctx.workspace_.empty() ? 0 : ctx.workspace_[0];
    if (ws > (size_t(1) << 31)) die("tiling", "workspace of " + std::to_string(ws) + " bytes is larger than 2 GiB");
    workspace_ = static_cast<uint8_t*>(AscendC::GmAlloc(ws ? ws : 32));
    std::memset(workspace_, 0xA5, ws ? ws : 32);
    has_tiling_key_ = ctx.has_tiling_key_;
    tiling_key_ = ctx.tiling_key_;
    uint64_t info[3] = {block_dim_, ws, tiling_key_};
    std::string blob(reinterpret_cast<char*>(info), sizeof info);
    blob.append(static_cast<const char*>(raw->GetData()), n);
    emit(REC_TILING, "tiling", blob.data(), blob.size());
}
#else
inline void akgen_harness::Harness::run_tiling() { block_dim_ = block_dim_fixed_; }
#endif
