// ascend_sim: sets aside the DT_ macros a kernel translation unit has (the op build's
// ORIG_DTYPE_<NAME> compare with them in #if: bench_runner/op_project.py ge_dtype_defines) while
// a header that declares or uses ge's DT_ enumerators is read; dt_macros_restore.h brings them
// back. No include guard: each header that needs it includes both, around its whole text.
#pragma push_macro("DT_FLOAT16")
#undef DT_FLOAT16
#pragma push_macro("DT_FLOAT")
#undef DT_FLOAT
#pragma push_macro("DT_BF16")
#undef DT_BF16
#pragma push_macro("DT_INT8")
#undef DT_INT8
#pragma push_macro("DT_UINT8")
#undef DT_UINT8
#pragma push_macro("DT_INT16")
#undef DT_INT16
#pragma push_macro("DT_UINT16")
#undef DT_UINT16
#pragma push_macro("DT_INT32")
#undef DT_INT32
#pragma push_macro("DT_UINT32")
#undef DT_UINT32
#pragma push_macro("DT_INT64")
#undef DT_INT64
#pragma push_macro("DT_UINT64")
#undef DT_UINT64
#pragma push_macro("DT_BOOL")
#undef DT_BOOL
#pragma push_macro("DT_DOUBLE")
#undef DT_DOUBLE
