# PygraphOptions.cmake - the build's settings, defined once.  Included by the
# top-level CMakeLists.txt and, for use as subprojects, by runtime/ and
# examples/ (include_guard: the first include wins).
include_guard(GLOBAL)

set(PYGRAPH_LLVM_MAJOR 22 CACHE STRING "LLVM/Clang major version pygraph is built for")
set(PYGRAPH_CUDA_PATH /usr/local/cuda CACHE PATH
  "CUDA toolkit root (headers, cudart, ptxas) for the runtime, examples and tests")
set(PYGRAPH_CUDA_ARCH sm_90 CACHE STRING "GPU architecture (--cuda-gpu-arch) for examples and GPU tests")
set(PYGRAPH_DEVICE_PTX_ARCH sm_90 CACHE STRING
  "architecture of the runtime's own device code (runtime/device/, embedded PTX: runs on it and newer)")
find_program(PYGRAPH_CLANGXX NAMES clang++-${PYGRAPH_LLVM_MAJOR} clang++
  HINTS ${LLVM_TOOLS_BINARY_DIR} /usr/lib/llvm-${PYGRAPH_LLVM_MAJOR}/bin
  DOC "clang++ that compiles CUDA programs with the pygraph plugin")

# How examples/*.cu are compiled (plain, with the plugin, by hand): the same
# flags for all three so that their checksums and times compare.
set(PYGRAPH_EXAMPLE_OPT_FLAGS "-O2" CACHE STRING
  "optimisation flags of the example programs (not the build type: they mirror a user's build)")
set(PYGRAPH_EXAMPLE_PLUGIN_ARGS "" CACHE STRING
  "extra plugin options for <name>_pygraph, e.g. min-launches=3;straight-line=0")

# The toolkit's own ptxas (the tests assemble the runtime's loader PTX) and
# fatbinary: the runtime's device code is embedded as a fat binary holding
# machine code for PYGRAPH_DEVICE_SASS_ARCHS and the PTX for any other GPU
# (which the driver then compiles when it is first loaded: a quarter of a
# second for the condition kernels, on every machine whose cache lacks it).
find_program(PYGRAPH_PTXAS ptxas HINTS ${PYGRAPH_CUDA_PATH}/bin NO_DEFAULT_PATH
  DOC "ptxas of PYGRAPH_CUDA_PATH")
find_program(PYGRAPH_FATBINARY fatbinary HINTS ${PYGRAPH_CUDA_PATH}/bin NO_DEFAULT_PATH
  DOC "fatbinary of PYGRAPH_CUDA_PATH")
set(PYGRAPH_DEVICE_SASS_ARCHS "90;100;120" CACHE STRING
  "GPU architectures (numbers, at least PYGRAPH_DEVICE_PTX_ARCH's) the runtime's own device code is
  compiled for ahead of time; empty: PTX only")

# No optimisation flags are hard-coded: a single-config build without a
# build type is a Release build.
get_property(_pygraph_multi_config GLOBAL PROPERTY GENERATOR_IS_MULTI_CONFIG)
if(NOT _pygraph_multi_config AND NOT CMAKE_BUILD_TYPE AND CMAKE_SOURCE_DIR STREQUAL PROJECT_SOURCE_DIR)
  set(CMAKE_BUILD_TYPE Release CACHE STRING "Build type" FORCE)
endif()
