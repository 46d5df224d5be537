/* pygraph_nvcc_host_minmax.h - nvcc's host overloads of min() and max(), for clang.
 *
 * nvcc declares min/max for the integer and floating types __host__ __device__
 * (crt/math_functions.hpp); under clang the toolkit's and clang's own are
 * __device__ only, so host code and __host__ __device__ functions that call
 * min(a, b) compile with nvcc and not with clang.  pygraph-nvcc pre-includes
 * this file in CUDA compiles (as nvcc makes them available without an
 * include): the same signatures, host only, static inline as nvcc's, with
 * the arguments converted to the return type and floating values compared
 * by fmin/fmax, as nvcc's do.  On the host,
 * clang considers only these (device functions are not viable there), so
 * overload resolution is nvcc's; device code keeps the device versions.
 */
#ifndef PYGRAPH_NVCC_HOST_MINMAX_H
#define PYGRAPH_NVCC_HOST_MINMAX_H
#if defined(__clang__) && defined(__CUDA__) && defined(__cplusplus)

static inline __host__ int min(const int a, const int b) { return (int)a < (int)b ? (int)a : (int)b; }
static inline __host__ unsigned int min(const unsigned int a, const unsigned int b) { return (unsigned int)a < (unsigned int)b ? (unsigned int)a : (unsigned int)b; }
static inline __host__ unsigned int min(const int a, const unsigned int b) { return (unsigned int)a < (unsigned int)b ? (unsigned int)a : (unsigned int)b; }
static inline __host__ unsigned int min(const unsigned int a, const int b) { return (unsigned int)a < (unsigned int)b ? (unsigned int)a : (unsigned int)b; }
static inline __host__ long int min(const long int a, const long int b) { return (long int)a < (long int)b ? (long int)a : (long int)b; }
static inline __host__ unsigned long int min(const unsigned long int a, const unsigned long int b) { return (unsigned long int)a < (unsigned long int)b ? (unsigned long int)a : (unsigned long int)b; }
static inline __host__ unsigned long int min(const long int a, const unsigned long int b) { return (unsigned long int)a < (unsigned long int)b ? (unsigned long int)a : (unsigned long int)b; }
static inline __host__ unsigned long int min(const unsigned long int a, const long int b) { return (unsigned long int)a < (unsigned long int)b ? (unsigned long int)a : (unsigned long int)b; }
static inline __host__ long long int min(const long long int a, const long long int b) { return (long long int)a < (long long int)b ? (long long int)a : (long long int)b; }
static inline __host__ unsigned long long int min(const unsigned long long int a, const unsigned long long int b) { return (unsigned long long int)a < (unsigned long long int)b ? (unsigned long long int)a : (unsigned long long int)b; }
static inline __host__ unsigned long long int min(const long long int a, const unsigned long long int b) { return (unsigned long long int)a < (unsigned long long int)b ? (unsigned long long int)a : (unsigned long long int)b; }
static inline __host__ unsigned long long int min(const unsigned long long int a, const long long int b) { return (unsigned long long int)a < (unsigned long long int)b ? (unsigned long long int)a : (unsigned long long int)b; }
static inline __host__ float min(const float a, const float b) { return __builtin_fminf((float)a, (float)b); }
static inline __host__ double min(const double a, const double b) { return __builtin_fmin((double)a, (double)b); }
static inline __host__ double min(const float a, const double b) { return __builtin_fmin((double)a, (double)b); }
static inline __host__ double min(const double a, const float b) { return __builtin_fmin((double)a, (double)b); }
static inline __host__ int max(const int a, const int b) { return (int)a > (int)b ? (int)a : (int)b; }
static inline __host__ unsigned int max(const unsigned int a, const unsigned int b) { return (unsigned int)a > (unsigned int)b ? (unsigned int)a : (unsigned int)b; }
static inline __host__ unsigned int max(const int a, const unsigned int b) { return (unsigned int)a > (unsigned int)b ? (unsigned int)a : (unsigned int)b; }
static inline __host__ unsigned int max(const unsigned int a, const int b) { return (unsigned int)a > (unsigned int)b ? (unsigned int)a : (unsigned int)b; }
static inline __host__ long int max(const long int a, const long int b) { return (long int)a > (long int)b ? (long int)a : (long int)b; }
static inline __host__ unsigned long int max(const unsigned long int a, const unsigned long int b) { return (unsigned long int)a > (unsigned long int)b ? (unsigned long int)a : (unsigned long int)b; }
static inline __host__ unsigned long int max(const long int a, const unsigned long int b) { return (unsigned long int)a > (unsigned long int)b ? (unsigned long int)a : (unsigned long int)b; }
static inline __host__ unsigned long int max(const unsigned long int a, const long int b) { return (unsigned long int)a > (unsigned long int)b ? (unsigned long int)a : (unsigned long int)b; }
static inline __host__ long long int max(const long long int a, const long long int b) { return (long long int)a > (long long int)b ? (long long int)a : (long long int)b; }
static inline __host__ unsigned long long int max(const unsigned long long int a, const unsigned long long int b) { return (unsigned long long int)a > (unsigned long long int)b ? (unsigned long long int)a : (unsigned long long int)b; }
static inline __host__ unsigned long long int max(const long long int a, const unsigned long long int b) { return (unsigned long long int)a > (unsigned long long int)b ? (unsigned long long int)a : (unsigned long long int)b; }
static inline __host__ unsigned long long int max(const unsigned long long int a, const long long int b) { return (unsigned long long int)a > (unsigned long long int)b ? (unsigned long long int)a : (unsigned long long int)b; }
static inline __host__ float max(const float a, const float b) { return __builtin_fmaxf((float)a, (float)b); }
static inline __host__ double max(const double a, const double b) { return __builtin_fmax((double)a, (double)b); }
static inline __host__ double max(const float a, const double b) { return __builtin_fmax((double)a, (double)b); }
static inline __host__ double max(const double a, const float b) { return __builtin_fmax((double)a, (double)b); }
#endif
#endif /* PYGRAPH_NVCC_HOST_MINMAX_H */
