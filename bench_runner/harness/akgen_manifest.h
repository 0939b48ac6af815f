// akgen_manifest.h — the manifest the evaluator writes for a driver, and the result-stream
// writer both drivers (cpu-sim, NPU) share.
//
// Manifest: whitespace-separated words, one directive per line (bench_runner/launcher.py
// writes it): report PATH | block_dim N | tiling_capacity N | platform AIV AIC UB SOC |
// input/output NAME DTYPE NDIM D... | list NAME COUNT (NDIM D...)... | attr KIND NAME VALUE |
// trial I | buf NAME PATH | end. A `list` line follows the input/output line of a tensor list
// (a DYNAMIC OpDef input or output): the shape of each of its tensors; its buffer file holds
// them one after the other.
// Result stream records: "AKGR" u32 kind, u32 trial, u32 name_len, u64 payload_len, name, payload.
#pragma once

#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "akgen_host.h"

namespace akgen_manifest {

// REC_UNCHANGED: an input buffer whose bytes after the launch equal its input file, sent instead
// of the buffer itself (no payload): most kernels leave their inputs alone, and echoing them
// was two thirds of an elementwise case's stream.
// REC_SUBMITTED ("host" or "kernel", no payload): sent once, just before submitted code of that
// kind first runs; a failure after it is the submission's (issue #30, akgen_host_guard.h).
enum RecordKind : uint32_t {
    REC_BUFFER = 1, REC_REPORT = 2, REC_STATUS = 3, REC_TILING = 4, REC_TRIAL_DONE = 5, REC_UNCHANGED = 6,
    REC_SUBMITTED = 7
};
// Exit status when a driver itself refuses to go on (bad manifest, tiling failure).
constexpr int kDriverExit = 4;

struct Tensor {
    std::string name, dtype;
    std::vector<int64_t> shape;
};

struct BufferRef {
    std::string name, path;
};

// A tensor list: the shape of each of its tensors.
struct ListShape {
    std::string name;
    std::vector<std::vector<int64_t>> shapes;
};

struct Manifest {
    int result_fd = -1;
    std::string report_path;
    uint32_t block_dim = 0;  // 0: the host tiling decides
    size_t tiling_capacity = 16384;
    gert::PlatformInfo platform;
    std::vector<Tensor> inputs, outputs;
    std::vector<ListShape> lists;
    std::vector<gert::RuntimeAttrs::Attr> attrs;

    const ListShape* list_of(const std::string& name) const {
        for (const auto& l : lists) {
            if (l.name == name) return &l;
        }
        return nullptr;
    }
    std::vector<std::vector<BufferRef>> trials;
};

class Stream {
  public:
    int fd = -1;
    uint32_t trial = 0;

    void emit(uint32_t kind, const std::string& name, const void* data, uint64_t n) {
        if (fd < 0) return;
        char hdr[24];
        std::memcpy(hdr, "AKGR", 4);
        const uint32_t name_len = static_cast<uint32_t>(name.size());
        std::memcpy(hdr + 4, &kind, 4);
        std::memcpy(hdr + 8, &trial, 4);
        std::memcpy(hdr + 12, &name_len, 4);
        std::memcpy(hdr + 16, &n, 8);
        write_all(hdr, sizeof hdr);
        write_all(name.data(), name.size());
        if (n) write_all(data, n);
    }

    [[noreturn]] void die(const std::string& code, const std::string& msg) {
        std::fprintf(stderr, "[AKGEN][%s] %s\n", code.c_str(), msg.c_str());
        emit(REC_STATUS, code, msg.data(), msg.size());
        std::fflush(stderr);
        std::_Exit(kDriverExit);
    }

  private:
    void write_all(const void* p, uint64_t n) {
        const auto* c = static_cast<const char*>(p);
        while (n > 0) {
            const ssize_t k = ::write(fd, c, n > (1u << 30) ? (1u << 30) : n);
            if (k < 0 && errno == EINTR) continue;
            if (k <= 0) {
                std::fprintf(stderr, "[AKGEN][io] cannot write results: %s\n", std::strerror(errno));
                std::_Exit(kDriverExit);
            }
            c += k;
            n -= static_cast<uint64_t>(k);
        }
    }
};

inline bool word(FILE* f, std::string& out) {
    char buf[4096];
    if (std::fscanf(f, "%4095s", buf) != 1) return false;
    out = buf;
    return true;
}

inline int64_t num(FILE* f) {
    std::string w;
    return word(f, w) ? std::strtoll(w.c_str(), nullptr, 10) : 0;
}

// Parses the manifest; on failure returns false with a message in `err`.
inline bool parse(const char* path, Manifest& m, std::string& err) {
    FILE* f = std::fopen(path, "r");
    if (!f) {
        err = std::string("cannot open manifest ") + path;
        return false;
    }
    std::string w;
    if (!word(f, w) || w != "akgen-manifest" || num(f) != 1) {
        std::fclose(f);
        err = "not an akgen manifest v1";
        return false;
    }
    while (word(f, w)) {
        if (w == "result_fd") {
            m.result_fd = static_cast<int>(num(f));
        } else if (w == "report") {
            word(f, m.report_path);
        } else if (w == "block_dim") {
            m.block_dim = static_cast<uint32_t>(num(f));
        } else if (w == "tiling_capacity") {
            m.tiling_capacity = static_cast<size_t>(num(f));
        } else if (w == "platform") {
            m.platform.aiv_cores = static_cast<uint32_t>(num(f));
            m.platform.aic_cores = static_cast<uint32_t>(num(f));
            m.platform.ub_bytes = static_cast<uint64_t>(num(f));
            word(f, m.platform.soc);
        } else if (w == "input" || w == "output") {
            Tensor t;
            word(f, t.name);
            word(f, t.dtype);
            const int64_t nd = num(f);
            for (int64_t i = 0; i < nd; ++i) t.shape.push_back(num(f));
            (w == "input" ? m.inputs : m.outputs).push_back(t);
        } else if (w == "list") {
            ListShape l;
            word(f, l.name);
            const int64_t n = num(f);
            if (n < 1 || n > 4096) {
                err = "a tensor list of " + std::to_string(n) + " tensors";
                std::fclose(f);
                return false;
            }
            for (int64_t i = 0; i < n; ++i) {
                const int64_t nd = num(f);
                std::vector<int64_t> dims;
                for (int64_t d = 0; d < nd && d < 16; ++d) dims.push_back(num(f));
                l.shapes.push_back(dims);
            }
            m.lists.push_back(l);
        } else if (w == "attr") {
            gert::RuntimeAttrs::Attr a;
            std::string kind, value;
            word(f, kind);
            word(f, a.name);
            word(f, value);
            a.s = value;
            if (kind == "float") {
                a.f = std::strtof(value.c_str(), nullptr);
                a.i = static_cast<int64_t>(a.f);
            } else {
                a.i = std::strtoll(value.c_str(), nullptr, 10);
                a.f = static_cast<float>(a.i);
            }
            a.b = a.i != 0;
            m.attrs.push_back(a);
        } else if (w == "trial") {
            num(f);
            m.trials.emplace_back();
        } else if (w == "buf") {
            BufferRef b;
            word(f, b.name);
            word(f, b.path);
            if (m.trials.empty()) {
                err = "buf before trial";
                std::fclose(f);
                return false;
            }
            m.trials.back().push_back(b);
        } else if (w == "end") {
            break;
        } else {
            err = "unknown manifest word " + w;
            std::fclose(f);
            return false;
        }
    }
    std::fclose(f);
    if (m.result_fd < 0) {
        // The sandbox hands over the result descriptor and announces it in the environment.
        const char* env = std::getenv("AKGEN_FD_0");
        if (env) m.result_fd = std::atoi(env);
    }
    if (m.result_fd < 0) {
        err = "no result_fd and no AKGEN_FD_0";
        return false;
    }
    return true;
}

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

// The tiling context a host file sees for this manifest's case. Indexes are CANN's: a tensor
// list is one IR input with one compute-node (instance) input per tensor (GetInputShape(i) by
// instance, GetDynamicInputShape(ir, j) through ir_inputs_).
inline void fill_context(gert::TilingContext& ctx, const Manifest& m) {
    for (const auto& t : m.inputs) {
        const ListShape* l = m.list_of(t.name);
        ctx.ir_inputs_.emplace_back(ctx.inputs_.size(), l ? l->shapes.size() : 1);
        for (const auto& shape : l ? l->shapes : std::vector<std::vector<int64_t>>{t.shape}) {
            ctx.inputs_.emplace_back(gert::Shape(shape));
            ctx.in_desc_.emplace_back(dtype_enum(t.dtype));
        }
    }
    for (const auto& t : m.outputs) {
        const ListShape* l = m.list_of(t.name);
        for (const auto& shape : l ? l->shapes : std::vector<std::vector<int64_t>>{t.shape}) {
            ctx.outputs_.emplace_back(gert::Shape(shape));
            ctx.out_desc_.emplace_back(dtype_enum(t.dtype));
        }
    }
    ctx.attrs_.mutable_attrs() = m.attrs;
    ctx.platform_ = m.platform;
    ctx.block_dim_ = m.block_dim;
}

// Checks what a TilingFunc returned; returns an error message, or "" when it is usable.
inline std::string check_tiling(gert::TilingContext& ctx, ge::graphStatus st, uint32_t fixed_block_dim) {
    if (st == 0xAE000001u) {  // akgen_tiling::kNoTilingFunc
        return "the host file has no tiling function: define optiling::TilingFunc(gert::TilingContext*), or "
               "register an OpDef whose AICore().SetTiling(...) names one (OP_ADD)";
    }
    if (st == 0xAE000002u) {
        return "the host file registers several ops with a TilingFunc and none is named after this task's "
               "kernel; register one op, named as the kernel in CamelCase";
    }
    if (st != ge::GRAPH_SUCCESS) return "TilingFunc returned " + std::to_string(st) + " instead of GRAPH_SUCCESS";
    const uint32_t bd = ctx.GetBlockDim();
    if (fixed_block_dim != 0 && bd != fixed_block_dim) {
        return "TilingFunc changed the block dim to " + std::to_string(bd) + " but this task launches exactly " +
               std::to_string(fixed_block_dim);
    }
    if (bd < 1 || bd > 65535) return "SetBlockDim(" + std::to_string(bd) + ") is outside [1, 65535]";
    auto* raw = ctx.GetRawTilingData();
    if (raw->GetDataSize() > raw->GetCapacity()) {
        return "tiling data size " + std::to_string(raw->GetDataSize()) + " exceeds the capacity " +
               std::to_string(raw->GetCapacity());
    }
    const size_t ws = ctx.workspace_.empty() ? 0 : ctx.workspace_[0];
    if (ws > (size_t(1) << 31)) return "workspace of " + std::to_string(ws) + " bytes is larger than 2 GiB";
    return "";
}

}  // namespace akgen_manifest

#ifdef AKGEN_HAS_HOST
// host_tu.cpp compiles the host file and exports its TilingFunc (often declared static, as in
// CANN op hosts) under this name: on cpu-sim the one symbol of a submitted host object the build
// leaves global (toolchains/cpu_sim.py), called only on a confined thread (akgen_host_guard.h).
ge::graphStatus akgen_call_tiling(gert::TilingContext* context);
#endif
