// nccl_check.h - the NCCL examples' error check: any NCCL call that fails
// ends the program with its error, as common.h's CHECK does for CUDA calls.
#pragma once

#include <cstdio>
#include <cstdlib>

#include <nccl.h>

#define NCCL_CHECK(call)                                                     \
  do {                                                                       \
    ncclResult_t r_ = (call);                                                \
    if (r_ != ncclSuccess) {                                                 \
      fprintf(stderr, "NCCL error %s at %s:%d\n", ncclGetErrorString(r_),    \
              __FILE__, __LINE__);                                           \
      exit(1);                                                               \
    }                                                                        \
  } while (0)
