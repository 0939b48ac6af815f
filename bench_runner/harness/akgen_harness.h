// akgen_harness.h — the fixed driver around a kernel under test on cpu-sim.
//
// The evaluator generates a main.cpp per task that includes this header and launches the
// kernel. At run time the driver reads the manifest, and for each trial: loads every GM buffer
// from a file (inputs, and outputs pre-filled with poison), runs the host tiling, launches the
// kernel with ICPU_RUN_KF, and streams every buffer plus the emulator's report to a result
// descriptor the evaluator opened. It never judges: comparison with the golden happens in the
// evaluator, so nothing a kernel prints can make it pass.
//
// Submitted code runs only after the driver has announced it on the stream (REC_SUBMITTED "host"
// before the host tiling first runs, "kernel" before the first launch), so the evaluator can tell
// a failure of ours from one the submission caused; host code runs confined
// (akgen_host_guard.h), and the driver ends with _Exit, so no exit hook runs after its verdict.
#pragma once

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "akgen_host_guard.h"
#include "akgen_manifest.h"
#include "tikicpulib.h"

namespace akgen_harness {

using akgen_manifest::REC_BUFFER;
using akgen_manifest::REC_REPORT;
using akgen_manifest::REC_STATUS;
using akgen_manifest::REC_SUBMITTED;
using akgen_manifest::REC_TILING;
using akgen_manifest::REC_TRIAL_DONE;
using akgen_manifest::REC_UNCHANGED;

struct Buffer {
    std::string name, path;
    uint8_t* gm = nullptr;
    uint64_t bytes = 0;
    // A tensor list: each tensor in its own GM allocation, and the list descriptor the kernel's
    // argument points at; `gm` holds the tensors one after the other (the file's layout).
    std::vector<uint8_t*> parts;
    std::vector<uint64_t> part_bytes;
    uint8_t* desc = nullptr;
};

class Harness {
  public:
    Harness(int argc, char** argv) {
        std::string err;
        if (argc < 2) out_.die("manifest", "usage: prog MANIFEST");
        if (!akgen_manifest::parse(argv[1], m_, err)) out_.die("manifest", err);
        out_.fd = m_.result_fd;
    }

    bool next_trial() {
        free_trial();
        ++current_;
        out_.trial = static_cast<uint32_t>(current_);
        return current_ < static_cast<int>(m_.trials.size());
    }

    // Loads the trial's buffers and runs the host tiling.
    void prepare() {
        bufs_.clear();
        for (const auto& ref : m_.trials[static_cast<size_t>(current_)]) {
            Buffer b;
            b.name = ref.name;
            b.path = ref.path;
            load(b);
            if (const auto* l = m_.list_of(b.name)) split(b, *l);
            bufs_.push_back(b);
        }
        run_tiling();
        announce("kernel");
    }

    uint8_t* gm(const char* name) {
        if (std::strcmp(name, "workspace") == 0) return workspace_;
        if (std::strcmp(name, "tiling") == 0) return tiling_;
        for (auto& b : bufs_) {
            if (b.name == name) return b.desc ? b.desc : b.gm;
        }
        out_.die("manifest", std::string("no buffer named ") + name);
    }

    uint32_t block_dim() const { return block_dim_; }
    bool has_tiling_key() const { return has_tiling_key_; }
    uint64_t tiling_key() const { return tiling_key_; }

    // After the launch: stream every buffer (an input the kernel left as it was: only that fact)
    // and the emulator's report.
    void finish_trial() {
        for (auto& b : bufs_) gather(b);
        for (auto& b : bufs_) {
            if (is_input(b.name) && same_as_file(b)) {
                out_.emit(REC_UNCHANGED, b.name, nullptr, 0);
            } else {
                out_.emit(REC_BUFFER, b.name, b.gm, b.bytes);
            }
        }
        if (!m_.report_path.empty()) {
            std::string text;
            const int fd = ::open(m_.report_path.c_str(), O_RDONLY | O_CLOEXEC);
            if (fd >= 0) {
                char chunk[65536];
                ssize_t k;
                while ((k = ::read(fd, chunk, sizeof chunk)) > 0) text.append(chunk, static_cast<size_t>(k));
                ::close(fd);
            }
            out_.emit(REC_REPORT, "report", text.data(), text.size());
        }
        out_.emit(REC_TRIAL_DONE, "done", nullptr, 0);
    }

    // The last record, then the end: _Exit, so that no atexit hook or static destructor (the host
    // code registers its own while it runs) runs after it, outside the host code's confinement.
    [[noreturn]] int done() {
        out_.trial = 0;
        out_.emit(REC_STATUS, "ok", nullptr, 0);
        std::fflush(nullptr);
        std::_Exit(0);
    }

  private:
    // REC_SUBMITTED `who`, the first time only.
    void announce(const char* who) {
        bool& sent = who[0] == 'h' ? announced_host_ : announced_kernel_;
        if (!sent) out_.emit(REC_SUBMITTED, who, nullptr, 0);
        sent = true;
    }

    bool is_input(const std::string& name) const {
        for (const auto& t : m_.inputs) {
            if (t.name == name) return true;
        }
        return false;
    }

    // Whether the buffer still holds exactly its file's bytes (the file is on a read-only mount;
    // any doubt, such as a failed read, answers no and the buffer is sent).
    bool same_as_file(const Buffer& b) const {
        const int fd = ::open(b.path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0) return false;
        static char chunk[1 << 20];
        uint64_t at = 0;
        bool same = true;
        while (same && at < b.bytes) {
            const uint64_t want = std::min<uint64_t>(sizeof chunk, b.bytes - at);
            const ssize_t k = ::read(fd, chunk, want);
            if (k < 0 && errno == EINTR) continue;
            if (k <= 0) {
                same = false;
                break;
            }
            same = std::memcmp(chunk, b.gm + at, static_cast<size_t>(k)) == 0;
            at += static_cast<uint64_t>(k);
        }
        char extra;
        if (same && ::read(fd, &extra, 1) != 0) same = false;  // the file grew: not the bytes loaded
        ::close(fd);
        return same;
    }

    void load(Buffer& b) {
        const int fd = ::open(b.path.c_str(), O_RDONLY | O_CLOEXEC);
        struct stat st;
        if (fd < 0 || fstat(fd, &st) != 0) out_.die("io", "cannot open input " + b.path);
        b.bytes = static_cast<uint64_t>(st.st_size);
        b.gm = static_cast<uint8_t*>(AscendC::GmAlloc(b.bytes ? b.bytes : 32));
        uint64_t got = 0;
        while (got < b.bytes) {
            const ssize_t k = ::read(fd, b.gm + got, b.bytes - got);
            if (k < 0 && errno == EINTR) continue;
            if (k <= 0) out_.die("io", "short read of " + b.path);
            got += static_cast<uint64_t>(k);
        }
        ::close(fd);
    }

    // A tensor list as CANN's op build hands it to a kernel (the layout ListTensorDesc reads,
    // ascend_sim/compat.h): word 0 the byte offset of the data pointers; per tensor a descriptor
    // (its rank in the low 32 bits of the first word — the count in the high bits of the first
    // descriptor, the tensor's index in the others — then its dims); then one pointer per tensor.
    void split(Buffer& b, const akgen_manifest::ListShape& l) {
        uint64_t total = 0;
        for (const auto& s : l.shapes) total += numel(s);
        if (total == 0 ? b.bytes != 0 : b.bytes % total != 0) {
            out_.die("manifest", "tensor list " + b.name + ": " + std::to_string(b.bytes) + " bytes for " +
                                     std::to_string(total) + " elements");
        }
        const uint64_t item = total ? b.bytes / total : 0;
        uint64_t at = 0, words = 1;
        for (const auto& s : l.shapes) {
            const uint64_t n = numel(s) * item;
            auto* p = static_cast<uint8_t*>(AscendC::GmAlloc(n ? n : 32));
            if (n) std::memcpy(p, b.gm + at, n);
            b.parts.push_back(p);
            b.part_bytes.push_back(n);
            at += n;
            words += 1 + s.size();
        }
        const uint64_t ptr_offset = words * sizeof(uint64_t);
        words += l.shapes.size();
        b.desc = static_cast<uint8_t*>(AscendC::GmAlloc(words * sizeof(uint64_t)));
        auto* w = reinterpret_cast<uint64_t*>(b.desc);
        uint64_t k = 0;
        w[k++] = ptr_offset;
        for (size_t i = 0; i < l.shapes.size(); ++i) {
            w[k++] = static_cast<uint64_t>(l.shapes[i].size()) | (static_cast<uint64_t>(i ? i : l.shapes.size()) << 32);
            for (int64_t d : l.shapes[i]) w[k++] = static_cast<uint64_t>(d);
        }
        for (uint8_t* p : b.parts) w[k++] = reinterpret_cast<uint64_t>(p);
    }

    // After the launch: a tensor list's tensors back into the flat buffer that is streamed.
    static void gather(Buffer& b) {
        uint64_t at = 0;
        for (size_t i = 0; i < b.parts.size(); ++i) {
            if (b.part_bytes[i]) std::memcpy(b.gm + at, b.parts[i], b.part_bytes[i]);
            at += b.part_bytes[i];
        }
    }

    static uint64_t numel(const std::vector<int64_t>& s) {
        uint64_t n = 1;
        for (int64_t d : s) n *= static_cast<uint64_t>(d < 0 ? 0 : d);
        return n;
    }

    void run_tiling() {
        block_dim_ = m_.block_dim;
#ifdef AKGEN_HAS_HOST
        gert::TilingContext ctx(m_.tiling_capacity);
        akgen_manifest::fill_context(ctx, m_);
        const akgen_host_guard::Outcome host =
            akgen_host_guard::run(&ctx, !announced_host_, [this] { announce("host"); });
        if (!host.started) out_.die("harness", host.error);  // before any host code ran: ours
        if (!host.returned) out_.die("tiling", host.error);
        const std::string problem = akgen_manifest::check_tiling(ctx, host.status, m_.block_dim);
        if (!problem.empty()) out_.die("tiling", problem);
        block_dim_ = ctx.GetBlockDim();
        auto* raw = ctx.GetRawTilingData();
        const size_t n = raw->GetDataSize() ? raw->GetDataSize() : raw->GetCapacity();
        tiling_ = static_cast<uint8_t*>(AscendC::GmAlloc(n));
        std::memcpy(tiling_, raw->GetData(), n);
        const size_t ws = ctx.workspace_.empty() ? 0 : ctx.workspace_[0];
        workspace_ = static_cast<uint8_t*>(AscendC::GmAlloc(ws ? ws : 32));
        std::memset(workspace_, 0xA5, ws ? ws : 32);
        has_tiling_key_ = ctx.has_tiling_key_;
        tiling_key_ = ctx.tiling_key_;
        uint64_t info[3] = {block_dim_, ws, tiling_key_};
        std::string blob(reinterpret_cast<char*>(info), sizeof info);
        blob.append(static_cast<const char*>(raw->GetData()), n);
        out_.emit(REC_TILING, "tiling", blob.data(), blob.size());
#endif
        if (block_dim_ == 0) out_.die("tiling", "TilingFunc did not call context->SetBlockDim(n) with n >= 1");
    }

    void free_trial() {
        for (auto& b : bufs_) {
            if (b.gm) AscendC::GmFree(b.gm);
            for (uint8_t* p : b.parts) AscendC::GmFree(p);
            if (b.desc) AscendC::GmFree(b.desc);
        }
        bufs_.clear();
        if (workspace_) AscendC::GmFree(workspace_);
        if (tiling_) AscendC::GmFree(tiling_);
        workspace_ = tiling_ = nullptr;
    }

    akgen_manifest::Manifest m_;
    akgen_manifest::Stream out_;
    std::vector<Buffer> bufs_;
    int current_ = -1;
    uint32_t block_dim_ = 0;
    bool has_tiling_key_ = false;
    uint64_t tiling_key_ = 0;
    bool announced_host_ = false, announced_kernel_ = false;
    uint8_t* workspace_ = nullptr;
    uint8_t* tiling_ = nullptr;
};

}  // namespace akgen_harness
