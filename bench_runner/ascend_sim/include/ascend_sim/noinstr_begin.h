// ascend_sim: start of a region of emulator code (no include guard: it may open several regions).
//
// Why: the kernel's translation unit is instrumented so that its own scalar work is charged
// (docs/ascend_sim.md, "Scalar work"); the emulator's inline functions compiled into that unit
// must not be. Redefining `inline` inside the region gives every emulator function (free
// functions, and members declared `__aicore__ inline`) the ASCEND_SIM_NOINSTR attribute without
// repeating it on each one. Standard headers are included first (std_headers.h), so the macro
// never applies to them. noinstr_end.h closes the region.
#include "base.h"
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wattributes"
#pragma push_macro("inline")
#undef inline
#define inline inline ASCEND_SIM_NOINSTR
