// allow= takes every spelling a remark prints of an external function: the
// mangled symbol, the demangled signature (spaces between non-identifier
// characters do not matter) and the bare qualified name, which names every
// overload and template instance.  Names separate at commas outside
// brackets.  The missed remark of an opaque external call names the allow=
// option that would lift it.
// RUN: %cuda_host -O2 -fplugin=%plugin -fplugin-arg-pygraph-across-files=0 -Rpass-missed=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=HINT
// RUN: %cuda_host -O2 -fplugin=%plugin -fplugin-arg-pygraph-across-files=0 -fplugin-arg-pygraph-allow=sdkStartTimer -Rpass=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=TIMER
// RUN: %cuda_host -O2 -fplugin=%plugin -fplugin-arg-pygraph-across-files=0 -fplugin-arg-pygraph-allow=_Z13sdkStartTimerPP18StopWatchInterface -Rpass=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=TIMER
// RUN: %cuda_host -O2 -fplugin=%plugin -fplugin-arg-pygraph-across-files=0 '-fplugin-arg-pygraph-allow=sdkStartTimer(StopWatchInterface**)' -Rpass=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=TIMER
// RUN: %cuda_host -O2 -fplugin=%plugin -fplugin-arg-pygraph-across-files=0 '-fplugin-arg-pygraph-allow=sdkStartTimer( StopWatchInterface * * )' -Rpass=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=TIMER
// A bare name allows every overload; a signature only its own.
// RUN: %cuda_host -O2 -fplugin=%plugin -fplugin-arg-pygraph-across-files=0 -fplugin-arg-pygraph-allow=ns::f -Rpass=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=OVERLOADS
// RUN: %cuda_host -O2 -fplugin=%plugin -fplugin-arg-pygraph-across-files=0 '-fplugin-arg-pygraph-allow=ns::f(int)' -Rpass=pygraph -Rpass-missed=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=ONE
// Commas inside a signature stay in it; several -fplugin-arg-pygraph-allow add up.
// RUN: %cuda_host -O2 -fplugin=%plugin -fplugin-arg-pygraph-across-files=0 '-fplugin-arg-pygraph-allow=two(int, float),ns::f(float)' -fplugin-arg-pygraph-allow=ns::f -Rpass=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefixes=TWO,OVERLOADS
// Template instances: bare name, with template arguments, full signature.
// RUN: %cuda_host -O2 -fplugin=%plugin -fplugin-arg-pygraph-across-files=0 -fplugin-arg-pygraph-allow=ns::g -Rpass=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=TEMPLATE
// RUN: %cuda_host -O2 -fplugin=%plugin -fplugin-arg-pygraph-across-files=0 '-fplugin-arg-pygraph-allow=ns::g<int>' -Rpass=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=TEMPLATE
// RUN: %cuda_host -O2 -fplugin=%plugin -fplugin-arg-pygraph-across-files=0 '-fplugin-arg-pygraph-allow=void ns::g<int>(int)' -Rpass=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=TEMPLATE
// RUN: %cuda_host -O2 -fplugin=%plugin -fplugin-arg-pygraph-across-files=0 -fplugin-arg-pygraph-allow=c_fn -Rpass=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=CFN
// An empty name is an error.
// RUN: not %cuda_host -O2 -fplugin=%plugin -fplugin-arg-pygraph-across-files=0 -fplugin-arg-pygraph-allow=f,,g -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: error: pygraph: allow needs function names separated by commas, got 'f,,g'
struct StopWatchInterface;
bool sdkStartTimer(StopWatchInterface **timer);
void two(int, float);
namespace ns {
void f(int);
void f(float);
template <class T> void g(T);
} // namespace ns
extern "C" void c_fn(int);
__global__ void k(float *p) {}

void timers(float *p, StopWatchInterface **t, int n) {
  for (int i = 0; i < n; ++i) {
    k<<<1, 1>>>(p);
    sdkStartTimer(t);
    k<<<1, 1>>>(p);
    // HINT: allow-spellings.cu:[[@LINE-1]]:5: remark: launch of 'k(float*)' stays eager: only 1 launch site after external call 'sdkStartTimer(StopWatchInterface**)' at allow-spellings.cu:[[@LINE-2]], which may synchronize (if it does not, add -fplugin-arg-pygraph-allow=sdkStartTimer) before the next barrier; a graph region needs at least 2 (min-launches) [external-call]
  }
}
// TIMER: remark: formed graph region in 'timers(float*, StopWatchInterface**, int)': loop iteration (lines {{[0-9]+-[0-9]+}}), 2 launch sites

// ONE: remark: formed graph region in 'overloads(float*, int)': loop iteration (lines {{[0-9]+-[0-9]+}}), 2 launch sites
// ONE-NOT: 3 launch sites
void overloads(float *p, int n) {
  for (int i = 0; i < n; ++i) {
    k<<<1, 1>>>(p);
    ns::f(1);
    k<<<1, 1>>>(p);
    ns::f(1.0f);
    k<<<1, 1>>>(p);
    // HINT: allow-spellings.cu:[[@LINE-1]]:5: remark: launch of 'k(float*)' stays eager: only 1 launch site after external call 'ns::f(float)' at allow-spellings.cu:[[@LINE-2]], which may synchronize (if it does not, add -fplugin-arg-pygraph-allow=ns::f)
    // ONE: allow-spellings.cu:[[@LINE-2]]:5: remark: launch of 'k(float*)' stays eager: only 1 launch site after external call 'ns::f(float)'
  }
}
// OVERLOADS: remark: formed graph region in 'overloads(float*, int)': loop iteration (lines {{[0-9]+-[0-9]+}}), 3 launch sites

void two_args(float *p, int n) {
  for (int i = 0; i < n; ++i) {
    k<<<1, 1>>>(p);
    two(1, 2.0f);
    k<<<1, 1>>>(p);
    // HINT: allow-spellings.cu:[[@LINE-1]]:5: remark: launch of 'k(float*)' stays eager: only 1 launch site after external call 'two(int, float)' at allow-spellings.cu:[[@LINE-2]], which may synchronize (if it does not, add -fplugin-arg-pygraph-allow=two)
  }
}
// TWO: remark: formed graph region in 'two_args(float*, int)': loop iteration (lines {{[0-9]+-[0-9]+}}), 2 launch sites

void templ(float *p, int n) {
  for (int i = 0; i < n; ++i) {
    k<<<1, 1>>>(p);
    ns::g<int>(1);
    k<<<1, 1>>>(p);
    // HINT: allow-spellings.cu:[[@LINE-1]]:5: remark: launch of 'k(float*)' stays eager: only 1 launch site after external call 'void ns::g<int>(int)' at allow-spellings.cu:[[@LINE-2]], which may synchronize (if it does not, add -fplugin-arg-pygraph-allow=ns::g)
  }
}
// TEMPLATE: remark: formed graph region in 'templ(float*, int)': loop iteration (lines {{[0-9]+-[0-9]+}}), 2 launch sites

void c_call(float *p, int n) {
  for (int i = 0; i < n; ++i) {
    k<<<1, 1>>>(p);
    c_fn(1);
    k<<<1, 1>>>(p);
    // HINT: allow-spellings.cu:[[@LINE-1]]:5: remark: launch of 'k(float*)' stays eager: only 1 launch site after external call 'c_fn' at allow-spellings.cu:[[@LINE-2]], which may synchronize (if it does not, add -fplugin-arg-pygraph-allow=c_fn)
  }
}
// CFN: remark: formed graph region in 'c_call(float*, int)': loop iteration (lines {{[0-9]+-[0-9]+}}), 2 launch sites
