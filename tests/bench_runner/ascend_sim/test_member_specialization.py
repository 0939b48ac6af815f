"""In-class explicit specialisations (Catlass's form) become C++ that g++ compiles, and each call
still reaches the body the specialisation gave (ascend_sim/member_specialization.py)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from bench_runner.ascend_sim.source_rewrite import rewrite

CATLASS_LIKE = """\
#include <cstdint>
#include <cstdio>
#include <type_traits>
constexpr int32_t AIC = 1;
constexpr int32_t AIV = 2;
#ifndef CORE
#define CORE AIC
#endif
struct Kernel {
    template <int32_t CORE_TYPE = CORE>
    int operator()(int x);

    template <>
    int operator()<AIC>(int x) { return x + 100; }

    template <>
    int operator()<AIV>(int x) { return x + 200; }

    template<class T>
    struct LayoutHelper { using type = typename T::type; };
    template<>
    struct LayoutHelper<void> { using type = int; };
};
template <>
struct std::is_void<Kernel> : std::true_type {};  // namespace scope: valid C++, left alone
int main() {
    Kernel k;
    static_assert(std::is_same<Kernel::LayoutHelper<void>::type, int>::value, "member class specialisation");
    std::printf("%d %d %d\\n", k(1), k.operator()<AIC>(2), k.operator()<AIV>(3));
    return 0;
}
"""


def _build_and_run(tmp_path: Path, text: str, core: str) -> subprocess.CompletedProcess:
    src = tmp_path / "k.cpp"
    src.write_text(text)
    exe = tmp_path / f"k_{core}"
    built = subprocess.run(["g++", "-std=c++17", f"-DCORE={core}", str(src), "-o", str(exe)],
                           capture_output=True, text=True, check=False)
    assert built.returncode == 0, built.stderr[-2000:]
    return subprocess.run([str(exe)], capture_output=True, text=True, check=True)


def test_g_plus_plus_refuses_the_original():
    """The premise: without the rewrite g++ 12 rejects the code (CWG 727 is not implemented)."""
    out = subprocess.run(["g++", "-std=c++17", "-fsyntax-only", "-x", "c++", "-"], input=CATLASS_LIKE,
                         capture_output=True, text=True, check=False)
    assert out.returncode != 0 and "explicit specialization in non-namespace scope" in out.stderr


@pytest.mark.parametrize(("core", "default"), [("AIC", 101), ("AIV", 201)])
def test_each_call_reaches_its_specialisation(tmp_path, core, default):
    text = rewrite(CATLASS_LIKE)
    assert text.count("\n") == CATLASS_LIKE.count("\n")  # line numbers kept
    assert "struct std::is_void<Kernel>" in text and "template <>\nstruct std::is_void" in text
    assert _build_and_run(tmp_path, text, core).stdout.split() == [str(default), "102", "203"]


def test_a_primary_with_a_type_parameter_is_left_for_the_compiler():
    text = "struct S {\n  template <class T> void f(T);\n  template <> void f<int>(int) {}\n};\n"
    assert rewrite(text) == text


def test_comments_and_strings_are_not_rewritten():
    text = 'struct S {\n  // template <> void f<1>(int) {}\n  const char* s = "template <>";\n};\n'
    assert rewrite(text) == text
