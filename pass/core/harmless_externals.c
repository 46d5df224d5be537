/* harmless_externals.c - the documented allow-list of libc/libm/libstdc++
 * calls that neither synchronize with the device nor read its results, so
 * progress printing and host arithmetic do not break a region.  Everything
 * else outside the module is a barrier (add more with allow=f,g, in any
 * spelling allow_names.h lists). */
#include "harmless_externals.h"
#include "allow_names.h"
#include "options.h"
#include "../shim/pygraph_shim.h"

#include <string.h>

static const char *const kExact[] = {
    /* stdio progress output */
    "printf", "fprintf", "puts", "putchar", "fputs", "fputc", "fflush", "snprintf",
    "sprintf", "vprintf", "vfprintf", "__printf_chk", "__fprintf_chk", "__sprintf_chk",
    "__snprintf_chk", "fwrite",
    /* host memory and strings */
    "malloc", "calloc", "realloc", "free", "memcpy", "memmove", "memset", "strlen",
    "strcmp", "strncmp", "rand", "srand", "rand_r", "abs", "labs", "memcmp", "bcmp",
    "strcpy", "strncpy", "strcat", "strchr", "strrchr", "strstr", "getenv",
    /* parsing numbers (command-line arguments) */
    "strtol", "strtoul", "strtoll", "strtoull", "strtod", "strtof", "atoi", "atol", "atof",
    /* host files: kernels never see them; a device result reaches a file
     * only through a copy to the host, itself a barrier */
    "fopen", "fclose", "fread", "fgets", "fscanf", "__isoc99_fscanf", "__isoc99_sscanf",
    "sscanf",
    /* libm */
    "sqrt", "sqrtf", "sin", "sinf", "cos", "cosf", "tan", "tanf", "exp", "expf", "log",
    "logf", "log2", "log2f", "pow", "powf", "fabs", "fabsf", "floor", "floorf", "ceil",
    "ceilf", "fmin", "fminf", "fmax", "fmaxf", "fmod", "fmodf", "tanh", "tanhf",
    "round", "roundf", "lround", "lroundf", "exp2", "exp2f", "log10", "log10f", "atan",
    "atanf", "atan2", "atan2f", "asin", "asinf", "acos", "acosf", "sinh", "sinhf", "cosh",
    "coshf", "trunc", "truncf", "cbrt", "cbrtf", "hypot", "hypotf", "erf", "erff",
    "nextafter", "nextafterf", "ldexp", "ldexpf", "frexp", "frexpf", "modf", "modff",
    "expm1", "expm1f", "log1p", "log1pf", "fma", "fmaf", "rint", "rintf", "lrint", "lrintf",
    "copysign", "copysignf",
    /* C++ allocation */
    "_Znwm", "_Znam", "_ZdlPv", "_ZdaPv", "_ZdlPvm", "_ZdaPvm",
    /* catching, and the terminate path of every noexcept function at -O0 */
    "__cxa_begin_catch", "__cxa_end_catch", "_ZSt9terminatev",
    /* the one-time initialization guard of a function-local static (the
     * initializer itself is a call of its own, classified as any other) */
    "__cxa_guard_acquire", "__cxa_guard_release", "__cxa_guard_abort",
    /* std::basic_ios<char>::clear: an iostream's error state */
    "_ZNSt9basic_iosIcSt11char_traitsIcEE5clearESt12_Ios_Iostate",
    /* host clocks */
    "clock_gettime", "gettimeofday", "clock", "time",
    "_ZNSt6chrono3_V212steady_clock3nowEv", "_ZNSt6chrono3_V212system_clock3nowEv",
    /* iostreams: std::endl, std::flush */
    "_ZSt4endlIcSt11char_traitsIcEERSt13basic_ostreamIT_T0_ES6_",
    "_ZSt5flushIcSt11char_traitsIcEERSt13basic_ostreamIT_T0_ES6_",
};

/* Mangled-name prefixes of std::ostream members and operator<< overloads. */
static const char *const kPrefixes[] = {
    "_ZNSolsE",                /* std::ostream::operator<<(number) */
    "_ZNSo9_M_insert",         /* number insertion helpers */
    "_ZNSo5flushEv", "_ZNSo3putEc", "_ZNSo5writeEPKcl",
    "_ZStlsISt11char_traitsIcEERSt13basic_ostreamIcT_ES5_", /* << const char*, char */
    "_ZSt16__ostream_insertIcSt11char_traitsIcEERSt13basic_ostreamIT_T0_ES6_PKS3_l",
    /* std::string's members (libstdc++'s explicit instantiation): host
     * memory only */
    "_ZNKSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE",
    "_ZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE",
};

int pg_is_harmless_external(const char *name) {
  for (size_t i = 0; i < sizeof kExact / sizeof kExact[0]; ++i)
    if (strcmp(kExact[i], name) == 0)
      return 1;
  for (size_t i = 0; i < sizeof kPrefixes / sizeof kPrefixes[0]; ++i)
    if (strncmp(kPrefixes[i], name, strlen(kPrefixes[i])) == 0)
      return 1;
  return pg_allow_matches(pg_opts()->allow, pg_opts()->nallow, name);
}

int pg_is_nvtx_dispatch(LLVMValueRef call) {
  LLVMValueRef fnptr = LLVMGetCalledValue(call);
  if (!fnptr || !LLVMIsALoadInst(fnptr))
    return 0;
  LLVMValueRef base = pg_underlying_object(LLVMGetOperand(fnptr, 0));
  size_t n;
  const char *name = base && LLVMIsAGlobalVariable(base) ? LLVMGetValueName2(base, &n) : "";
  return strncmp(name, "nvtxGlobals_v", 13) == 0;
}
