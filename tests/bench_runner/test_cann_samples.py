"""CANN CPU-debug samples and direct-launch sources run unchanged on cpu-sim.

Covers ``akgen sample run`` on the two fixture folders (numpy-checked outputs), the sample's
kernel as an ``add_fp16_static`` submission, ``source_rewrite`` (``<<<>>>`` and ``[aicore]``),
and the host APIs such programs call: acl/acl.h, securec.h, tiling/platform/platform_ascendc.h.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from bench_runner import cann_sample, cli
from bench_runner.ascend_sim import build
from bench_runner.ascend_sim.source_rewrite import LAUNCH_FN, code_mask, rewrite

FIXTURES = Path(__file__).parent / "fixtures" / "cann_samples"
SAMPLE = FIXTURES / "add_cpu_debug"
DIRECT = FIXTURES / "add_direct_launch"
SINGLE = FIXTURES / "scale_single_file"

needs_gxx = pytest.mark.skipif(shutil.which("g++") is None, reason="g++ not installed")


# ---------------------------------------------------------------------------------------------
# source_rewrite: pure text


def test_launch_becomes_a_call_on_the_same_line() -> None:
    src = "void f() {\n    add_custom<<<8, nullptr, stream>>>(x, y, z);\n}\n"
    out = rewrite(src)
    assert out == ('void f() {\n    add_custom ->* __ascendc_kernel_launch("add_custom", 8, nullptr, stream)(x, y, z);\n'
                   "}\n")


@pytest.mark.parametrize(("src", "name", "config"), [
    ("k<<<n>>>(a);", "k", "n"),
    ("ns::k<float, 4><<<dim, 0, s>>>(a, b);", "ns::k<float, 4>", "dim, 0, s"),
    ("::k <<< n >> 1, nullptr, s >>> (a);", "::k", " n >> 1, nullptr, s "),
    ("k<<<f(a, b), g[2], s>>>(a);", "k", "f(a, b), g[2], s"),
])
def test_launch_forms(src: str, name: str, config: str) -> None:
    out = rewrite(src)
    assert f'{LAUNCH_FN}("{name}", {config})' in out
    assert "<<<" not in out and ">>>" not in out


def test_multiline_launch_keeps_every_line() -> None:
    src = "int a;\nkernel<<<blockDim,\n    nullptr,\n    stream>>>(x,\n    y);\nint b;\n"
    out = rewrite(src)
    assert out.count("\n") == src.count("\n")
    assert out.splitlines()[0] == "int a;" and out.splitlines()[-1] == "int b;"
    assert out.splitlines()[1].startswith(f'kernel ->* {LAUNCH_FN}("kernel", blockDim,')


def test_strings_comments_and_raw_strings_are_untouched() -> None:
    src = ('printf("k<<<1>>>(x) [aicore] void"); // k<<<1>>>(x)\n'
           "/* k<<<2>>>(y);\n [aicore] void g(); */\n"
           'auto r = R"tag(k<<<3>>>(z) )" [aicore] void)tag";\n'
           "char c = '<'; int big = 1'000'000;\n")
    assert rewrite(src) == src


def test_code_mask_keeps_length_and_newlines() -> None:
    src = 'a = "S1\\"S2"; // S3\nb = R"(S4\n)"; c = \'\\n\'; d = 0x1\'F;\n/* S5'
    mask = code_mask(src)
    assert len(mask) == len(src) and mask.count("\n") == src.count("\n")
    assert "S" not in mask and "0x1'F" in mask and mask.startswith('a = "      ";')


def test_aicore_attribute_is_blanked_but_not_subscripts_or_lambdas() -> None:
    src = ('extern "C" __global__ [aicore] void f(GM_ADDR x);\n'
           "__global__ [ aicore ] void g();\n"
           "int a = cores[aicore] + m[i][aicore];\n"
           "auto l = [aicore]() { return aicore; };\n"
           "auto m = [aicore] mutable { return aicore; };\n")
    out = rewrite(src).splitlines()
    assert out[0] == 'extern "C" __global__          void f(GM_ADDR x);'
    assert "aicore" not in out[1] and out[1].endswith("void g();")
    assert out[2:] == src.splitlines()[2:]


def test_aicore_after_forceinline_is_the_attribute_before_constexpr_and_destructors() -> None:
    """Catlass's CATLASS_DEVICE expands to ``__forceinline__ [aicore]`` (NPUKernelBench's L3
    answers carry it expanded): before ``constexpr``, a constructor or a destructor."""
    src = ("__forceinline__ [aicore] constexpr int f() { return 1; }\n"
           "struct S { __forceinline__ [aicore]\n S() {}\n __forceinline__ [aicore]\n ~S() {} };\n"
           "auto m = [aicore] constexpr { return aicore; };\n"
           "int b = n[aicore] - ~x;\n")
    out = rewrite(src).splitlines()
    assert "aicore" not in "".join(out[:5]), out
    assert out[5:] == src.splitlines()[5:]


def test_text_without_either_syntax_is_returned_as_is() -> None:
    src = "int x = a << b >> c; std::vector<std::vector<int>> v;\n"
    assert rewrite(src) is src


# ---------------------------------------------------------------------------------------------
# helpers for the C++ tests


def _compile(tmp: Path, files: dict[str, str], *, host: set[str] = frozenset()) -> tuple[int, str, Path]:
    """Compile ``files`` (rewritten, as cpu-sim would) the way ``akgen sample run`` does, unsandboxed."""
    build.ensure_pch()
    objs = []
    log = ""
    for name, text in files.items():
        (tmp / name).write_text(rewrite(text))
    for name in files:
        obj = tmp / f"{name}.o"
        argv = [a for a in build.compile_command([tmp / name], obj, extra_include_dirs=[tmp])
                if not a.endswith(build.RUNTIME_OBJ)]
        argv[1:1] = ["-c", cann_sample.CPU_TWIN_FLAG]
        if name in host:
            argv = [a for a in argv if a not in build.INSTRUMENT_FLAGS]
        done = subprocess.run(argv, capture_output=True, text=True, cwd=tmp)
        log += done.stderr
        if done.returncode != 0:
            return done.returncode, log, tmp / "prog"
        objs.append(obj)
    done = subprocess.run(build.compile_command(objs, tmp / "prog"), capture_output=True, text=True, cwd=tmp)
    return done.returncode, log + done.stderr, tmp / "prog"


# ---------------------------------------------------------------------------------------------
# the launch operator: templates, scalar arguments, argument checks

LAUNCH_KERNEL = r"""
#include "kernel_operator.h"
template <typename T>
__global__ __aicore__ void scale(GM_ADDR x, GM_ADDR z, T factor, uint32_t perCore) {
    AscendC::GlobalTensor<T> xg, zg;
    xg.SetGlobalBuffer((__gm__ T*)x + perCore * AscendC::GetBlockIdx(), perCore);
    zg.SetGlobalBuffer((__gm__ T*)z + perCore * AscendC::GetBlockIdx(), perCore);
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, perCore * sizeof(T));
    AscendC::LocalTensor<T> t = buf.Get<T>();
    AscendC::DataCopy(t, xg, perCore);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(0);
    AscendC::Muls(t, t, factor, perCore);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(0);
    AscendC::DataCopy(zg, t, perCore);
}
void launch(uint32_t blocks, void* stream, uint8_t* x, uint8_t* z, float f, uint32_t perCore) {
    scale<float><<<blocks, nullptr, stream>>>(x, z, f, perCore);
}
"""

LAUNCH_MAIN = r"""
#include <cstdio>
#include "acl/acl.h"
void launch(uint32_t blocks, void* stream, uint8_t* x, uint8_t* z, float f, uint32_t perCore);
int main(int argc, char**) {
    const uint32_t blocks = 4, perCore = 64, n = blocks * perCore;
    float *x = nullptr, *z = nullptr;
    aclrtMalloc((void**)&x, n * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&z, n * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST);
    for (uint32_t i = 0; i < n; ++i) x[i] = 0.5f * i - 7.0f;
    static float host[256];  // not device memory: the launch must refuse it
    launch(blocks, nullptr, (uint8_t*)x, argc > 1 ? (uint8_t*)host : (uint8_t*)z, 3.0f, perCore);
    for (uint32_t i = 0; i < n; ++i) std::printf("%.6f\n", z[i]);
    return 0;
}
"""


@needs_gxx
def test_template_kernel_launch_with_scalar_arguments(tmp_path: Path) -> None:
    rc, log, prog = _compile(tmp_path, {"k.cpp": LAUNCH_KERNEL, "main.cpp": LAUNCH_MAIN}, host={"main.cpp"})
    assert rc == 0, log
    report = tmp_path / "r.json"
    done = subprocess.run([str(prog)], capture_output=True, text=True, timeout=60,
                          env={"ASCEND_SIM_REPORT": str(report)})
    assert done.returncode == 0, done.stderr
    got = np.array([float(v) for v in done.stdout.split()], dtype=np.float32)
    want = (0.5 * np.arange(256, dtype=np.float32) - 7.0) * 3.0
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-6)
    rep = json.loads(report.read_text())
    assert rep["kernel"] == "scale<float>" and rep["block_dim"] == 4
    # A host pointer as kernel argument is refused like ICPU_RUN_KF refuses it.
    bad = subprocess.run([str(prog), "host"], capture_output=True, text=True, timeout=60)
    assert bad.returncode != 0 and "GM_OOB" in bad.stderr and "k.cpp" in bad.stderr


@needs_gxx
def test_launch_checks_argument_count(tmp_path: Path) -> None:
    kernel = LAUNCH_KERNEL.replace("(x, z, f, perCore);", "(x, z, f);")
    rc, log, _ = _compile(tmp_path, {"k.cpp": kernel})
    assert rc != 0 and "argument count differs" in log


# ---------------------------------------------------------------------------------------------
# host APIs: acl/acl.h, securec.h, platform_ascendc

API_MAIN = r"""
#include <cstdio>
#include <cstring>
#include "acl/acl.h"
#include "securec.h"
#include "tiling/platform/platform_ascendc.h"
#define SHOW(name, expr) std::printf("%s %lld\n", name, (long long)(expr))
int main() {
    SHOW("init", aclInit(nullptr));
    SHOW("init_again", aclInit(nullptr));
    uint32_t count = 0;
    SHOW("count_rc", aclrtGetDeviceCount(&count));
    SHOW("count", count);
    SHOW("set_dev1", aclrtSetDevice(1));
    SHOW("set_dev0", aclrtSetDevice(0));
    aclrtContext ctx = nullptr;
    SHOW("ctx", aclrtCreateContext(&ctx, 0));
    SHOW("ctx_set", aclrtSetCurrentContext(ctx));
    aclrtStream s = nullptr;
    SHOW("stream", aclrtCreateStream(&s));
    SHOW("stream_nonnull", s != nullptr);
    uint8_t *dev = nullptr, *host = nullptr;
    SHOW("malloc", aclrtMalloc((void**)&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    SHOW("malloc_host", aclrtMallocHost((void**)&host, 64));
    for (int i = 0; i < 64; ++i) host[i] = (uint8_t)(i * 3);
    SHOW("h2d", aclrtMemcpy(dev, 64, host, 64, ACL_MEMCPY_HOST_TO_DEVICE));
    SHOW("h2d_too_long", aclrtMemcpy(dev, 32, host, 64, ACL_MEMCPY_HOST_TO_DEVICE));
    SHOW("h2d_past_buffer", aclrtMemcpy(dev + 32, 64, host, 64, ACL_MEMCPY_HOST_TO_DEVICE));
    SHOW("h2d_to_host", aclrtMemcpy(host, 64, host, 64, ACL_MEMCPY_HOST_TO_DEVICE));
    SHOW("memset", aclrtMemsetAsync(dev + 60, 4, 0xEE, 4, s));
    SHOW("sync", aclrtSynchronizeStream(s));
    uint8_t back[64] = {0};
    SHOW("d2h", aclrtMemcpy(back, 64, dev, 64, ACL_MEMCPY_DEVICE_TO_HOST));
    SHOW("back_sum", [&] { long t = 0; for (int i = 0; i < 64; ++i) t += back[i]; return t; }());
    SHOW("free_host_ptr", aclrtFree(host));
    SHOW("free", aclrtFree(dev));
    SHOW("free_host", aclrtFreeHost(host));
    SHOW("f16", aclFloatToFloat16(1.5f));
    SHOW("f16_back_x100", (long long)(aclFloat16ToFloat(aclFloatToFloat16(-2.25f)) * 100));
    SHOW("dtsize_f16", aclDataTypeSize(ACL_FLOAT16));
    SHOW("dtsize_i64", aclDataTypeSize(ACL_INT64));
    SHOW("destroy", aclrtDestroyStream(s));
    SHOW("reset", aclrtResetDevice(0));
    SHOW("fin", aclFinalize());
    SHOW("kinds", ACL_MEMCPY_HOST_TO_HOST * 1000 + ACL_MEMCPY_HOST_TO_DEVICE * 100 +
                  ACL_MEMCPY_DEVICE_TO_HOST * 10 + ACL_MEMCPY_DEVICE_TO_DEVICE);

    char buf[8];
    SHOW("memcpy_s", memcpy_s(buf, sizeof buf, "abcdefg", 8));
    SHOW("memcpy_s_buf", std::strcmp(buf, "abcdefg"));
    SHOW("memcpy_s_range", memcpy_s(buf, 4, "abcdefg", 8));
    SHOW("memcpy_s_cleared", buf[0]);
    SHOW("memcpy_s_null", memcpy_s(nullptr, 4, "a", 1));
    SHOW("memset_s", memset_s(buf, sizeof buf, 'x', 3));
    SHOW("strcpy_s", strcpy_s(buf, sizeof buf, "1234567"));
    SHOW("strcpy_s_range", strcpy_s(buf, sizeof buf, "12345678"));
    SHOW("strcpy_s_empty", buf[0]);
    SHOW("strcat_s", strcpy_s(buf, sizeof buf, "ab") + strcat_s(buf, sizeof buf, "cd"));
    SHOW("strcat_s_buf", std::strcmp(buf, "abcd"));
    SHOW("sprintf_s", sprintf_s(buf, sizeof buf, "%d-%d", 12, 34));
    SHOW("sprintf_s_overflow", sprintf_s(buf, sizeof buf, "%s", "123456789"));
    SHOW("snprintf_s_trunc", snprintf_s(buf, sizeof buf, 3, "%s", "abcdef"));
    SHOW("snprintf_s_kept", std::strcmp(buf, "abc"));
    SHOW("eok", EOK);

    auto* p = platform_ascendc::PlatformAscendCManager::GetInstance();
    SHOW("aiv", p->GetCoreNumAiv());
    SHOW("aic", p->GetCoreNumAic());
    SHOW("core_num", p->GetCoreNum());
    uint64_t ub = 0, l1 = 0, l0c = 0;
    p->GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    p->GetCoreMemSize(platform_ascendc::CoreMemType::L1, l1);
    p->GetCoreMemSize(platform_ascendc::CoreMemType::L0_C, l0c);
    SHOW("ub", ub);
    SHOW("l1", l1);
    SHOW("l0c", l0c);
    SHOW("soc_910b", p->GetSocVersion() == platform_ascendc::SocVersion::ASCEND910B);
    SHOW("soc_310p", p->GetSocVersion() == platform_ascendc::SocVersion::ASCEND310P);
    SHOW("workspace", p->GetLibApiWorkSpaceSize());
    SHOW("singleton", platform_ascendc::PlatformAscendCManager::GetInstance("Ascend310P3") == p);
    return 0;
}
"""


def _values(stdout: str) -> dict[str, int]:
    return {k: int(v) for k, v in (line.split() for line in stdout.splitlines())}


@pytest.fixture(scope="module")
def api_prog(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("api")
    rc, log, prog = _compile(tmp, {"api.cpp": API_MAIN}, host={"api.cpp"})
    assert rc == 0, log
    return prog


@needs_gxx
@pytest.mark.parametrize(("soc", "aiv", "aic", "ub", "l1", "l0c", "workspace"), [
    ("Ascend910B2", 48, 24, 196608, 524288 - 256, 131072, 16 << 20),
    ("Ascend310P3", 8, 8, 262144, 1048576, 262144, 2 << 20),
])
def test_acl_securec_and_platform_calls(api_prog: Path, soc: str, aiv: int, aic: int, ub: int, l1: int,
                                        l0c: int, workspace: int) -> None:
    done = subprocess.run([str(api_prog)], capture_output=True, text=True, timeout=60, env={"ASCEND_SIM_SOC": soc})
    assert done.returncode == 0, done.stderr
    v = _values(done.stdout)
    # AscendCL
    assert v["init"] == 0 and v["init_again"] == 100002 and v["count"] == 1 and v["count_rc"] == 0
    assert v["set_dev1"] == 100000 and v["set_dev0"] == 0 and v["ctx"] == 0 and v["ctx_set"] == 0
    assert v["stream"] == 0 and v["stream_nonnull"] == 1 and v["malloc"] == 0 and v["malloc_host"] == 0
    assert v["h2d"] == 0 and v["h2d_too_long"] == 100000 and v["h2d_past_buffer"] == 100000
    assert v["h2d_to_host"] == 100000 and v["memset"] == 0 and v["sync"] == 0 and v["d2h"] == 0
    expect = np.arange(64, dtype=np.int64) * 3 % 256
    expect[60:] = 0xEE
    assert v["back_sum"] == int(expect.sum())
    assert v["free_host_ptr"] == 100000 and v["free"] == 0 and v["free_host"] == 0
    assert v["f16"] == int(np.float16(1.5).view(np.uint16)) and v["f16_back_x100"] == -225
    assert v["dtsize_f16"] == 2 and v["dtsize_i64"] == 8
    assert v["destroy"] == 0 and v["reset"] == 0 and v["fin"] == 0 and v["kinds"] == 123
    # securec
    assert v["memcpy_s"] == 0 and v["memcpy_s_buf"] == 0
    assert v["memcpy_s_range"] == (34 | 128) and v["memcpy_s_cleared"] == 0 and v["memcpy_s_null"] == 22
    assert v["memset_s"] == 0 and v["strcpy_s"] == 0
    assert v["strcpy_s_range"] == (34 | 128) and v["strcpy_s_empty"] == 0
    assert v["strcat_s"] == 0 and v["strcat_s_buf"] == 0
    assert v["sprintf_s"] == 5 and v["sprintf_s_overflow"] == -1
    assert v["snprintf_s_trunc"] == -1 and v["snprintf_s_kept"] == 0 and v["eok"] == 0
    # platform_ascendc, from the SoC table
    assert (v["aiv"], v["aic"], v["ub"], v["l1"], v["l0c"]) == (aiv, aic, ub, l1, l0c)
    assert v["core_num"] == aiv and v["workspace"] == workspace
    assert v["soc_910b"] == (soc == "Ascend910B2") and v["soc_310p"] == (soc == "Ascend310P3")
    assert v["singleton"] == 1


@needs_gxx
@pytest.mark.parametrize("order", ["platform_first", "akgen_host_first"])
def test_platform_header_and_task_host_interface_share_one_definition(tmp_path: Path, order: str) -> None:
    from bench_runner import launcher

    includes = ['#include "tiling/platform/platform_ascendc.h"', '#include "akgen_host.h"']
    if order != "platform_first":
        includes.reverse()
    src = tmp_path / "host.cpp"
    src.write_text("\n".join(includes) + "\n"
                   "uint32_t cores(gert::TilingContext* c) {\n"
                   "    platform_ascendc::PlatformAscendC p(c->GetPlatformInfo());\n"
                   "    uint64_t ub = 0; p.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);\n"
                   "    return p.GetCoreNumAiv() + static_cast<uint32_t>(ub);\n}\n")
    argv = ["g++", "-std=c++17", "-fsyntax-only", f"-I{build.include_dir()}", f"-I{launcher.HARNESS_DIR}", str(src)]
    done = subprocess.run(argv, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


@needs_gxx
@pytest.mark.parametrize(("call", "name"), [
    ("char b[4]; memcpy_s(b, 4, x, 4);", "memcpy_s"),
    ("aclrtMemcpy(x, 4, x + 4, 4, ACL_MEMCPY_DEVICE_TO_DEVICE);", "aclrtMemcpy"),
])
def test_host_copies_stay_out_of_device_code(tmp_path: Path, call: str, name: str) -> None:
    kernel = ('#include "acl/acl.h"\n#include "securec.h"\n#include "kernel_operator.h"\n'
              f'extern "C" __global__ __aicore__ void k(GM_ADDR x) {{ {call} }}\n')
    rc, log, _ = _compile(tmp_path, {"k.cpp": kernel})
    assert rc != 0 and f'attempt to use poisoned "{name}"' in log


# ---------------------------------------------------------------------------------------------
# akgen sample run


def test_sample_discovery_and_run_sh_arguments() -> None:
    assert [p.name for p in cann_sample.sources_of(SAMPLE)] == ["add_custom.cpp", "main.cpp"]
    assert cann_sample.classify(SAMPLE, SAMPLE / "add_custom.cpp") == "kernel"
    assert cann_sample.classify(SAMPLE, SAMPLE / "main.cpp") == "host"
    assert cann_sample.verify_args(SAMPLE) == ["output/output_z.bin", "output/golden.bin"]
    assert cann_sample.verify_args(DIRECT) == []


@needs_gxx
def test_cpu_debug_sample_runs_with_one_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    keep = tmp_path / "box"
    rc = cli.main(["sample", "run", str(SAMPLE), "--json", "--keep", str(keep)])
    out = json.loads(capsys.readouterr().out)
    assert rc == 0, out
    assert [s["name"] for s in out["steps"]] == ["gen_data", "build", "run", "verify_result"]
    assert all(s["ok"] for s in out["steps"]) and "test pass" in out["steps"][-1]["output"]
    assert out["report"]["kernel"] == "add_custom" and out["report"]["block_dim"] == 8
    assert out["report"]["total_cycles"] > 0 and not [f for f in out["report"]["findings"] if f["severity"] == "error"]
    # The program's output, checked against numpy independently of the sample's own script.
    box = keep / "box"
    x = np.fromfile(box / "input" / "input_x.bin", dtype=np.float16)
    y = np.fromfile(box / "input" / "input_y.bin", dtype=np.float16)
    z = np.fromfile(box / "output" / "output_z.bin", dtype=np.float16)
    assert x.size == 16384 and np.array_equal(z, (x.astype(np.float32) + y.astype(np.float32)).astype(np.float16))


@needs_gxx
def test_direct_launch_sample_runs_with_one_command(capsys: pytest.CaptureFixture[str]) -> None:
    rc = cli.main(["sample", "run", str(DIRECT), "--soc", "Ascend910B4"])
    text = capsys.readouterr().out
    assert rc == 0, text
    assert "PASSED" in text and "0 wrong" in text and "test pass" in text
    assert "kernel add_float: block_dim 8" in text and "Ascend910B4" in text


@needs_gxx
def test_a_wrong_kernel_fails_the_verify_step(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sample = tmp_path / "sample"
    shutil.copytree(SAMPLE, sample)
    kernel = sample / "add_custom.cpp"
    kernel.write_text(kernel.read_text().replace("AscendC::Add(c, a, b, kTile)", "AscendC::Sub(c, a, b, kTile)"))
    rc = cli.main(["sample", "run", str(sample)])
    text = capsys.readouterr().out
    assert rc == 1 and "FAILED" in text and "test failed" in text


@needs_gxx
def test_a_compile_error_is_reported_with_the_samples_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sample = tmp_path / "sample"
    shutil.copytree(DIRECT, sample)
    kernel = sample / "add_float.cpp"
    lines = kernel.read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if "AscendC::Add(a, a, b, n);" in line)
    lines[at] = lines[at].replace("AscendC::Add(a, a, b, n);", "std::vector<float> v;")
    kernel.write_text("\n".join(lines) + "\n")
    rc = cli.main(["sample", "run", str(sample), "--json"])
    out = json.loads(capsys.readouterr().out)
    assert rc == 1 and [s["name"] for s in out["steps"]] == ["build"]
    assert f"add_float.cpp:{at + 1}:" in out["steps"][0]["output"]
    assert 'poisoned "vector"' in out["steps"][0]["output"]


def test_missing_folder_is_an_input_error(tmp_path: Path) -> None:
    assert cli.main(["sample", "run", str(tmp_path / "nope")]) == cli.EXIT_INPUT
    (tmp_path / "empty").mkdir()
    assert cli.main(["sample", "run", str(tmp_path / "empty")]) == cli.EXIT_INPUT


# ---------------------------------------------------------------------------------------------
# the sample's kernel is a valid suite submission


@needs_gxx
def test_sample_kernel_passes_the_matching_suite_task(tmp_path: Path) -> None:
    from bench_runner.evaluate import evaluate

    kernel = (SAMPLE / "add_custom.cpp").read_text()
    result = evaluate("add_fp16_static", kernel, None, toolchain="cpu-sim", use_cache=False, baseline=False,
                      cache_dir=tmp_path / "cache")
    assert result.passed, (result.verdict, result.reason, result.compile_log[-2000:])


@needs_gxx
def test_direct_launch_kernel_source_compiles_through_the_toolchain(tmp_path: Path) -> None:
    """A submission with `<<<>>>` and [aicore] goes through cpu-sim's rewrite (toolchains/cpu_sim.py)."""
    from bench_runner.evaluate import evaluate

    kernel = (SAMPLE / "add_custom.cpp").read_text().replace("#ifndef ASCENDC_CPU_DEBUG\n", "#if 1\n")
    kernel = kernel.replace('extern "C" __global__ __aicore__ void add_custom', 'extern "C" __global__ [aicore] void add_custom')
    assert "<<<" in kernel and "[aicore]" in kernel
    result = evaluate("add_fp16_static", kernel, None, toolchain="cpu-sim", use_cache=False, baseline=False,
                      cache_dir=tmp_path / "cache")
    assert result.passed, (result.verdict, result.reason, result.compile_log[-2000:])


# ---------------------------------------------------------------------------------------------
# kernel-side names CANN kernels use: ASSERT, kernel_tiling/kernel_tiling.h

ASSERT_KERNEL = r"""
#include "kernel_operator.h"
#include "kernel_tiling/kernel_tiling.h"
static_assert(sizeof(AscendC::tiling::TCubeTiling) == sizeof(TCubeTiling), "one TCubeTiling");
static_assert(sizeof(AscendC::tiling::SoftMaxTiling) == sizeof(SoftMaxTiling), "one SoftMaxTiling");
extern "C" __global__ __aicore__ void checked(GM_ADDR flags) {
    AscendC::GlobalTensor<int32_t> g;
    g.SetGlobalBuffer((__gm__ int32_t*)flags, 8);
    ASSERT(g.GetValue(AscendC::GetBlockIdx()) == 0 && "flag must be clear");
}
"""

ASSERT_MAIN = r"""
#include "tikicpulib.h"
extern "C" __global__ __aicore__ void checked(GM_ADDR flags);
int main(int argc, char**) {
    int32_t* f = (int32_t*)AscendC::GmAlloc(8 * sizeof(int32_t));
    for (int i = 0; i < 8; ++i) f[i] = 0;
    if (argc > 1) f[3] = 1;
    ICPU_RUN_KF(checked, 4, (uint8_t*)f);
    AscendC::GmFree(f);
    return 0;
}
"""


@needs_gxx
def test_assert_in_a_kernel_is_a_crash_finding_at_its_line(tmp_path: Path) -> None:
    rc, log, prog = _compile(tmp_path, {"k.cpp": ASSERT_KERNEL, "main.cpp": ASSERT_MAIN}, host={"main.cpp"})
    assert rc == 0, log
    ok = subprocess.run([str(prog)], capture_output=True, text=True, timeout=60)
    assert ok.returncode == 0, ok.stderr
    line = next(i for i, t in enumerate(ASSERT_KERNEL.splitlines(), 1) if "ASSERT(" in t)
    bad = subprocess.run([str(prog), "fail"], capture_output=True, text=True, timeout=60)
    assert bad.returncode == 3
    assert "CRASH" in bad.stderr and f"k.cpp:{line}]" in bad.stderr and "Core_3" in bad.stderr


@needs_gxx
def test_single_file_source_with_host_main_runs_with_one_command(capsys: pytest.CaptureFixture[str]) -> None:
    """asc-devkit's layout: kernel and host main() in one .asc file, cpu_debug_launch.h, <<<>>>.
    The host part uses <vector>/<iostream> after kernel_operator.h, so the file is built as a
    mixed translation unit (no device-code poison) and the kernel still runs on emulated cores."""
    rc = cli.main(["sample", "run", str(SINGLE)])
    text = capsys.readouterr().out
    assert rc == 0, text
    assert "scale.asc (mixed)" in text and "scale: all 4096 of 4096 right" in text
    assert "kernel scale_kernel: block_dim 4" in text


def test_the_kernel_part_of_a_single_file_source_keeps_to_the_device_code_allow_list(tmp_path: Path) -> None:
    """In a file with main() the device-code poison is off (the host part is ordinary C++), but
    what its kernels call is still checked on the object: bcopy in the kernel fails the build,
    naming the kernel and the routine, while the host part's memcpy and iostream are fine."""
    folder = tmp_path / "scale_bcopy"
    shutil.copytree(SINGLE, folder)
    src = folder / "scale.asc"
    text = src.read_text()
    anchor = "    AscendC::TPipe pipe;\n"
    assert anchor in text
    src.write_text(text.replace(anchor, "    char tmp[2];\n    bcopy(x, tmp, 2);\n" + anchor, 1))
    result = cann_sample.run_sample(folder)
    build = next(s for s in result.steps if s.name == "build")
    assert not build.ok and "scale_kernel calls bcopy" in build.output and "[device_code]" in build.output, \
        build.output[-2000:]


def test_mixed_is_a_file_with_kernels_and_main() -> None:
    assert cann_sample.classify(SINGLE, SINGLE / "scale.asc") == "mixed"
    assert cann_sample.classify(SAMPLE, SAMPLE / "add_custom.cpp") == "kernel"
    assert cann_sample.classify(SAMPLE, SAMPLE / "main.cpp") == "host"
    assert not cann_sample.is_mixed("// int main() in a comment\nvoid k() {}\n")


def test_a_judged_kernel_cannot_switch_the_device_rules_off() -> None:
    """Only sample runs set the mixed flag; a submission that defines it is refused."""
    from bench_runner.evaluate import evaluate

    src = "#define ASCEND_SIM_MIXED_TU 1\n" + (SAMPLE / "add_custom.cpp").read_text()
    r = evaluate("add_fp16_static", src, use_cache=False, baseline=False)
    assert r.verdict.value == "sandbox_violation", r.reason
