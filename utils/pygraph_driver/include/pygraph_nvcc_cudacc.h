/* pygraph_nvcc_cudacc.h - __CUDACC__ defined as nvcc defines it: 1.
 *
 * clang's CUDA wrapper header, included before anything else, ends by
 * defining __CUDACC__ with no value, so `#if __CUDACC__`, which nvcc
 * compiles, is an error under clang.  pygraph-nvcc pre-includes this file in
 * CUDA compiles, after that wrapper and before the program.
 */
#if defined(__clang__) && defined(__CUDA__) && defined(__CUDACC__)
#undef __CUDACC__
#define __CUDACC__ 1
#endif
