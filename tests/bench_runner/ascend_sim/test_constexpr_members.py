"""constexpr constructors that leave members to their body (Catlass's Coord) compile with g++
after the rewrite, as they do with bisheng; nothing else changes (constexpr_members.py)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from bench_runner.ascend_sim import source_rewrite

COORD = """\
#include <cstdint>
template <
    int RANK_,
    class Index_ = uint32_t
>
struct Coord {
public:
    static const int RANK = RANK_;
    using Index = Index_;
    constexpr explicit Coord(Index value = Index(0)) {
        for (int i = 0; i < RANK; ++i) { idx[i] = value; }
    }
    constexpr Index operator[](int i) const { return idx[i]; }
private:
    Index idx[RANK];  // the body fills it: C++20, or clang's C++17 extension
};
struct Partial {
    constexpr Partial() : tag(1) { w = 2; }
    int tag : 4;  // a bit-field gets no initializer (C++20): its mem-initializer must do
    int w;
};
struct Plain {
    Plain() { b[0] = 1; }
    int b[2];
};
static constexpr Coord<2> kOrigin(7);
static_assert(kOrigin[1] == 7, "filled by the constructor's body");
"""


def test_only_members_of_classes_with_such_a_constructor_get_an_initializer() -> None:
    out = source_rewrite.rewrite(COORD)
    assert out.count("\n") == COORD.count("\n")
    assert "Index idx[RANK]{};" in out
    assert "int tag : 4;" in out and "int w{};" in out
    assert "static const int RANK = RANK_;" in out and "using Index = Index_;" in out
    assert "int b[2];" in out  # no constexpr constructor: left alone


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")
def test_gxx_refuses_the_original_and_accepts_the_rewrite(tmp_path: Path) -> None:
    def compiles(text: str) -> subprocess.CompletedProcess:
        src = tmp_path / "coord.cpp"
        src.write_text(text)
        return subprocess.run(["g++", "-std=c++17", "-fsyntax-only", str(src)], capture_output=True, text=True)

    before = compiles(COORD)
    assert before.returncode != 0 and "mem-initializer" in before.stderr
    after = compiles(source_rewrite.rewrite(COORD))
    assert after.returncode == 0, after.stderr
