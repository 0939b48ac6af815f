// ascend_sim: end of a region opened by noinstr_begin.h (no include guard, by design).
#pragma pop_macro("inline")
#pragma GCC diagnostic pop
