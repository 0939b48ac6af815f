// ascend_sim: what device code cannot use. kernel_operator.h includes it last, so it applies to
// everything the kernel writes after its first include (headers included later must not use the names).
//
// Why: an AI core has no C library, no heap, no operating system, no exceptions and no RTTI; its
// compiler refuses code that needs them. On a CPU all of that links fine, so a kernel that
// memcpy's its output or keeps a std::vector would otherwise pass (and model as fast as it
// likes). Poisoning the names makes every later use — however it is spelled: a macro, a token
// paste, a `(name)` call — a compile error at the kernel's own line:
//
//     kernel.cpp:12:5: error: attempt to use poisoned "memcpy"
//
// which the evaluator reports as category `device_code`. These are the names that give a line;
// the rule itself is an allow-list, checked on the compiled object (bench_runner/device_code.py):
// a routine missing here is still refused there. AscendC's own printf/PRINTF stay
// available. The emulator's code before this point is unaffected (poison is lexical), and so are
// macros defined before it (GET_TILING_DATA and friends).
#pragma once

// Headers a host translation unit also reads (tiling/tiling_api.h) leave host-only code out after this.
#define ASCEND_SIM_DEVICE_CODE 1

// host C library: memory and strings
#pragma GCC poison memcpy memmove memset memcmp memchr strcpy strncpy strcat strlen strcmp strncmp strstr strdup
#pragma GCC poison bcopy bzero explicit_bzero mempcpy memccpy memrchr rawmemchr swab stpcpy stpncpy strnlen
#pragma GCC poison wmemcpy wmemmove wmemset wmemcmp wmemchr wcscpy wcsncpy wcslen
// heap
#pragma GCC poison malloc calloc realloc free aligned_alloc posix_memalign new
// files, streams and the console (AscendC's printf/PRINTF excepted)
#pragma GCC poison fopen freopen fclose fread fwrite fflush fprintf vfprintf sprintf snprintf vsnprintf
#pragma GCC poison fputs puts putchar fputc fgets scanf sscanf fscanf perror cout cerr cin
// the process and the operating system
#pragma GCC poison exit _Exit quick_exit abort atexit at_quick_exit system getenv setenv putenv
#pragma GCC poison fork vfork execve execv execvp execl syscall mmap munmap mprotect
// host library algorithms and containers
#pragma GCC poison qsort bsearch rand srand sort stable_sort partial_sort nth_element accumulate
#pragma GCC poison vector deque unordered_map unordered_set multimap multiset basic_string string
#pragma GCC poison shared_ptr unique_ptr make_shared make_unique
// exceptions, RTTI, thread-local storage
#pragma GCC poison throw try catch typeid dynamic_cast thread_local __thread
// host libraries a CPU-debug or direct-launch host program uses (include/securec.h, include/acl/acl.h):
// bisheng refuses host calls in __aicore__ code, and their copies would move data past the cost model
#pragma GCC poison memcpy_s memmove_s memset_s strcpy_s strncpy_s strcat_s strncat_s sprintf_s snprintf_s
#pragma GCC poison vsprintf_s vsnprintf_s sscanf_s
#pragma GCC poison aclrtMalloc aclrtMallocHost aclrtFree aclrtFreeHost aclrtMemcpy aclrtMemcpyAsync aclrtMemset
#pragma GCC poison aclrtMemsetAsync
// Headers included after this point (acl/acl.h) leave the poisoned declarations out.
#define ASCEND_SIM_DEVICE_CODE_POISONED 1
