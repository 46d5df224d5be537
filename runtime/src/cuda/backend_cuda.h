/* backend_cuda.h - the backend that talks to the CUDA runtime. */
#ifndef PYGRAPH_BACKEND_CUDA_H
#define PYGRAPH_BACKEND_CUDA_H

#include "port/backend.h"

extern const struct pygraph_backend pygraph_cuda_backend;

#endif /* PYGRAPH_BACKEND_CUDA_H */
