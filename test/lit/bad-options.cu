// Unknown options and bad values are clang errors that name the option.
// RUN: not %cuda_host -fplugin=%plugin -fplugin-arg-pygraph-bogus -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: error: pygraph: unknown option 'bogus'; known: disable, analyze-only, min-launches=N, straight-line=0|1, indirection=0|1, batch=N, whole-loops=0|1|2, across-files=0|1, allow=f,g (in '-fplugin-arg-pygraph-bogus')
// RUN: not %cuda_host -fplugin=%plugin -fplugin-arg-pygraph-min-launches=zero -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=VALUE
// VALUE: error: pygraph: min-launches needs a positive integer, got 'zero'
// RUN: not %cuda_host -fplugin=%plugin -fplugin-arg-pygraph-straight-line=2 -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=BOOL
// BOOL: error: pygraph: straight-line needs 0 or 1, got '2'
// RUN: not %cuda_host -fplugin=%plugin -fplugin-arg-pygraph-indirection=yes -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=IND
// IND: error: pygraph: indirection needs 0 or 1, got 'yes'
// RUN: not %cuda_host -fplugin=%plugin -fplugin-arg-pygraph-batch=-1 -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=BATCH
// RUN: not %cuda_host -fplugin=%plugin -fplugin-arg-pygraph-batch=many -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=BATCH
// BATCH: error: pygraph: batch needs a non-negative integer (0: no batching), got '{{-1|many}}'
// RUN: not %cuda_host -fplugin=%plugin -fplugin-arg-pygraph-whole-loops=3 -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=WHOLE
// WHOLE: error: pygraph: whole-loops needs 0, 1 or 2, got '3'
// Known options are accepted.
// RUN: %cuda_host -fplugin=%plugin -fplugin-arg-pygraph-min-launches=3 -fplugin-arg-pygraph-allow=foo,bar -fplugin-arg-pygraph-analyze-only -fplugin-arg-pygraph-indirection=0 -fplugin-arg-pygraph-batch=0 -fplugin-arg-pygraph-batch=8 -fplugin-arg-pygraph-whole-loops=0 -fplugin-arg-pygraph-whole-loops=2 -c %s -o /dev/null
__global__ void k() {}
