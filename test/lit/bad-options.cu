// Unknown options and bad values are clang errors that name the option.
// RUN: not %cuda_host -fplugin=%plugin -fplugin-arg-pygraph-bogus -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: error: pygraph: unknown option 'bogus'; known: disable, analyze-only, min-launches=N, straight-line=0|1, allow=f,g (in '-fplugin-arg-pygraph-bogus')
// RUN: not %cuda_host -fplugin=%plugin -fplugin-arg-pygraph-min-launches=zero -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=VALUE
// VALUE: error: pygraph: min-launches needs a positive integer, got 'zero'
// RUN: not %cuda_host -fplugin=%plugin -fplugin-arg-pygraph-straight-line=2 -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=BOOL
// BOOL: error: pygraph: straight-line needs 0 or 1, got '2'
// Known options are accepted.
// RUN: %cuda_host -fplugin=%plugin -fplugin-arg-pygraph-min-launches=3 -fplugin-arg-pygraph-allow=foo,bar -fplugin-arg-pygraph-analyze-only -c %s -o /dev/null
__global__ void k() {}
