"""cpu-sim: confining a submitted host object before it is linked into the driver (issue #30).

The host_device path links the submitted host file (TilingFunc, an op_host's OpDef) into the
same program as the fixed driver. Linked as it is, the host object's code could run where the
driver cannot confine it: its static initialisers run before main(), and a function it defines
under a library's name (``open``, ``fopen``, ``operator new``) would replace the one the driver
calls. ``objcopy_argv`` rewrites the object so that neither can happen:

* ``.init_array`` becomes ``akgen_host_init``, an ordinary data section (the loader does not run
  it; the driver calls its entries on the confined thread, harness/akgen_host_guard.h);
* every symbol the object defines is made local except the entry the driver calls, and its COMDAT
  groups are dissolved: its copies of inline functions (and, compiled with ``-fno-gnu-unique``,
  of inline variables and function-local statics) are its own, so it cannot replace a function
  the driver or the emulator calls, and no copy of theirs is dropped for one of its.

What that cannot move — a ``.preinit_array``, an init priority, a destructor attribute, code in
``.init``/``.fini``, an ifunc resolver (run by the loader while it relocates) — :func:`breaches`
finds in the rewritten object, and the build refuses it.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from bench_runner import elf_object, taxonomy
from bench_runner.errors import ToolchainUnavailableError

#: The renamed initialiser section (its __start_/__stop_ symbols are a C identifier's).
INIT_SECTION = "akgen_host_init"
#: ``ge::graphStatus akgen_call_tiling(gert::TilingContext*)`` (harness/akgen_manifest.h): the one
#: symbol of the host object the driver may see.
ENTRY_SYMBOL = "_Z17akgen_call_tilingPN4gert13TilingContextE"
#: Added to the host translation unit's compile: inline variables and function-local statics as
#: ordinary weak symbols, which objcopy can make local (it leaves STB_GNU_UNIQUE ones global).
COMPILE_FLAGS = ("-fno-gnu-unique",)
#: The compiled host translation unit and what objcopy makes of it (both in the build box).
SOURCE_OBJECT = Path("host_tu.o")
CONFINED_OBJECT = Path("host_confined.o")
#: Section names (or prefixes, before a '.') through which the loader would run code.
_LOADER_SECTIONS = (".preinit_array", ".init_array", ".ctors", ".dtors", ".fini_array", ".init", ".fini")
_STT_GNU_IFUNC = 10


def objcopy() -> str:
    """binutils' objcopy (it comes with g++); ToolchainUnavailableError without it."""
    found = shutil.which("objcopy")
    if found is None:
        raise ToolchainUnavailableError("cpu-sim needs objcopy (binutils) to confine submitted host code")
    return found


def objcopy_argv(src: Path = SOURCE_OBJECT, dst: Path = CONFINED_OBJECT) -> list[str]:
    """The command that turns the compiled host object ``src`` into the confined ``dst``.

    Renaming with explicit flags also makes the section PROGBITS: gold would still run a section of
    type INIT_ARRAY at load time, whatever its name.
    """
    return [objcopy(), "--remove-section=.group", f"--keep-global-symbol={ENTRY_SYMBOL}",
            f"--rename-section=.init_array={INIT_SECTION},alloc,load,contents,data", str(src), str(dst)]


def elf_section_names(path: Path) -> set[str]:
    """The section names of a 64-bit little-endian ELF file (empty if it is not one)."""
    obj = elf_object.read(path)
    return set(obj.sections) if obj else set()


def elf_ifunc_symbols(path: Path) -> list[str]:
    """Names of the GNU indirect functions an ELF object defines or declares (their resolvers run
    while the loader relocates the program, before any initialiser)."""
    obj = elf_object.read(path)
    return sorted(s.name for s in obj.symbols if s.type == _STT_GNU_IFUNC) if obj else []


def breaches(obj: Path) -> list[taxonomy.Diagnostic]:
    """What in the confined host object would still run outside the driver's confinement (a
    compile error of host.cpp), or [] when nothing does."""
    sections = sorted(n for n in elf_section_names(obj)
                      if any(n == s or n.startswith(s + ".") for s in _LOADER_SECTIONS))
    ifuncs = elf_ifunc_symbols(obj)
    if not sections and not ifuncs:
        return []
    what = ", ".join([*(f"section {s}" for s in sections), *(f"ifunc {f}" for f in ifuncs)])
    return [taxonomy.Diagnostic(
        taxonomy.Category.TILING_HOST,
        "host.cpp has code the program loader would run before the driver starts or after it ends, "
        "outside the confinement host code runs in (an init priority, __attribute__((destructor)), "
        ".preinit_array, code in .init/.fini, or an ifunc resolver): use ordinary static initialisers, "
        f"or do the work in TilingFunc ({what})", "host.cpp", None, None, "compile")]
