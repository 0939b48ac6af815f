"""Just enough of ELF64 (x86-64 relocatable objects) to judge what a kernel's object file calls.

Why: the cpu-sim toolchain refuses a kernel whose object runs code before the launch (init
sections) or calls anything outside the device-code allow-list (bench_runner/device_code.py).
Both questions are answered from the object the compiler wrote: its sections, its symbol table
and its relocations (who refers to what). Reading those needs no external tool and no demangler,
and a malformed file reads as ``None`` rather than raising, so the caller decides what an
unreadable object means.
"""

from __future__ import annotations

import os
import struct
from dataclasses import dataclass
from pathlib import Path

#: st_shndx values that are not section indices.
SHN_UNDEF, SHN_ABS, SHN_COMMON = 0, 0xFFF1, 0xFFF2
STT_OBJECT, STT_FUNC, STT_SECTION = 1, 2, 3
STB_LOCAL = 0
STB_GLOBAL = 1
STB_WEAK = 2
_SHT_SYMTAB, _SHT_RELA = 2, 4
#: PC-relative relocation types (R_X86_64_PC32, R_X86_64_PLT32): the 4-byte field lies 4 bytes
#: before the next instruction, so the referenced address is symbol + addend + 4.
_PC_RELATIVE = frozenset({2, 4})
_MAX_BYTES = 256 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class Symbol:
    name: str
    bind: int
    type: int
    section: int
    value: int
    size: int

    @property
    def defined(self) -> bool:
        return self.section != SHN_UNDEF

    @property
    def in_section(self) -> bool:
        return self.section not in (SHN_UNDEF, SHN_ABS, SHN_COMMON)


@dataclass(frozen=True, slots=True)
class Relocation:
    section: int  # the section whose bytes are patched
    offset: int
    symbol: int  # index into ElfObject.symbols
    type: int
    addend: int

    @property
    def pc_relative(self) -> bool:
        return self.type in _PC_RELATIVE


@dataclass(frozen=True, slots=True)
class ElfObject:
    sections: list[str]
    symbols: list[Symbol]
    relocations: list[Relocation]


def read(path: Path) -> ElfObject | None:
    """The sections, symbols and relocations of a 64-bit little-endian ELF file; None if it is
    not one or is malformed. Never follows a symlink (a sandboxed compile wrote the directory)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
        with os.fdopen(fd, "rb") as f:
            data = f.read(_MAX_BYTES)
        return _parse(data)
    except (OSError, struct.error, IndexError, UnicodeDecodeError, ValueError):
        return None


def _cstr(data: bytes, start: int, end: int) -> str:
    stop = data.find(b"\0", start, end)
    return data[start:stop if stop >= 0 else end].decode("latin-1")


def _parse(data: bytes) -> ElfObject | None:
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        return None
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    if not shoff or shentsize < 64 or shstrndx >= shnum or shoff + shnum * shentsize > len(data):
        return None
    # (name, type, flags, addr, offset, size, link, info, addralign, entsize)
    headers = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
    for h in headers:
        if h[1] != 8 and h[4] + h[5] > len(data):  # SHT_NOBITS occupies no file bytes
            return None
    str_off, str_size = headers[shstrndx][4], headers[shstrndx][5]
    sections = [_cstr(data, str_off + h[0], str_off + str_size) for h in headers]
    symbols: list[Symbol] = []
    relocations: list[Relocation] = []
    for h in headers:
        if h[1] == _SHT_SYMTAB and h[6] < shnum:
            names_off, names_size = headers[h[6]][4], headers[h[6]][5]
            for k in range(h[5] // 24):
                name, info, _, shndx, value, size = struct.unpack_from("<IBBHQQ", data, h[4] + k * 24)
                symbols.append(Symbol(_cstr(data, names_off + name, names_off + names_size), info >> 4,
                                      info & 0xF, shndx, value, size))
            break
    for h in headers:
        if h[1] == _SHT_RELA:
            for k in range(h[5] // 24):
                offset, info, addend = struct.unpack_from("<QQq", data, h[4] + k * 24)
                if info >> 32 < len(symbols):
                    relocations.append(Relocation(h[7], offset, info >> 32, info & 0xFFFFFFFF, addend))
    return ElfObject(sections, symbols, relocations)
