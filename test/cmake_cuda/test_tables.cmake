# test_tables.cmake - the ctest cmake_cuda_tables: pygraph_enable's tables for
# CUDA-language projects (nvcc-only options, GPU architectures), run in
# script mode against the source tree's cmake/ and the drivers' arch.py.
#   cmake -DSRC=<repo> -P test_tables.cmake
cmake_minimum_required(VERSION 3.20)
include(${SRC}/cmake/PygraphArchTable.cmake)
include(${SRC}/cmake/PygraphCudaArchs.cmake)
include(${SRC}/cmake/PygraphNvccFlags.cmake)
_pygraph_read_arch_table(${SRC}/utils/pygraph_driver/arch.py table_)
set(PYGRAPH_CLANG_CUDA_ARCHS ${table_CLANG_ARCHS})
set(PYGRAPH_CLANG_CUDA_MAJOR_ARCHS ${table_MAJOR_ARCHS})
set(PYGRAPH_CLANG_CUDA_A_ARCHS ${table_ARCH_SPECIFIC})
set(PYGRAPH_LLVM_MAJOR 22)
set(failures 0)

function(expect what actual expected)
  if(NOT "${actual}" STREQUAL "${expected}")
    message(SEND_ERROR "${what}:\n  got      '${actual}'\n  expected '${expected}'")
  else()
    message(STATUS "ok: ${what}")
  endif()
endfunction()

function(expect_match what actual regex)
  if(NOT "${actual}" MATCHES "${regex}")
    message(SEND_ERROR "${what}: '${actual}' does not match '${regex}'")
  else()
    message(STATUS "ok: ${what}")
  endif()
endfunction()

# The table read from arch.py (what clang 22 builds with CUDA 13).
expect("clang architectures from arch.py" "${table_CLANG_ARCHS}" "75;80;86;87;89;90;100;103;120;121")
expect("major architectures from arch.py" "${table_MAJOR_ARCHS}" "75;80;90;100;120")

# GPU architectures.
_pygraph_cuda_archs(a note 50 52 60 70 75 80 86 87 89 90 100 110 120)
expect("an old samples list" "${a}" "75;80;86;87;89;90;100;103;120")
expect_match("its note names the raised ones" "${note}" "50, 52, 60, 70 built as 75")
expect_match("its note names the lowered one" "${note}" "110 as 103")
_pygraph_cuda_archs(a note 75 90)
expect("architectures clang builds stay" "${a}" "75;90")
expect("... with no note" "${note}" "")
_pygraph_cuda_archs(a note 90a 100a 89a 88 sm_80 compute_86 90-real 90-virtual)
expect("suffixes, nvcc names, sm_88" "${a}" "90a;100a;89;87;80;86;90-real;90-virtual")
_pygraph_cuda_archs(a note all-major native OFF)
expect("all-major, native, OFF" "${a}" "75;80;90;100;120;native;OFF")
_pygraph_cuda_archs(a note all)
expect("all" "${a}" "75;80;86;87;89;90;100;103;120;121")

# nvcc-only options: plain words (as CMAKE_CUDA_FLAGS gives them).
macro(options)
  _pygraph_nvcc_options(out changes rdc refused ${ARGN})
endmacro()
options(--extended-lambda -Wno-deprecated-gpu-targets -lineinfo -Wall -O3 --expt-relaxed-constexpr)
expect("no-effect options dropped, -lineinfo translated" "${out}" "-gline-tables-only;-Wall;-O3")
expect_match("changes listed" "${changes}" "--extended-lambda -> \\(nothing\\).*-lineinfo -> -gline-tables-only")
expect("no rdc" "${rdc}" "OFF")
options(-std=c++17 -DX=1 -Iinc --cuda-gpu-arch=sm_75)
expect("clang options untouched" "${out}" "-std=c++17;-DX=1;-Iinc;--cuda-gpu-arch=sm_75")
expect("... and no changes" "${changes}" "")
options(-G --use_fast_math -maxrregcount=64 -Xptxas=-v,-O3 -Xcompiler -Wextra,-fopenmp)
expect("debug, fast math, registers, ptxas, host compiler"
  "${out}" "-g;--cuda-noopt-device-debug;-fgpu-flush-denormals-to-zero;-fgpu-approx-transcendentals;SHELL:-Xcuda-ptxas --maxrregcount=64;SHELL:-Xcuda-ptxas -v;SHELL:-Xcuda-ptxas -O3;-Wextra;-fopenmp")
options(--default-stream per-thread --ftz=true --fmad=false --prec-div=true)
expect("default stream, ftz, fmad, prec-div"
  "${out}" "-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1;SHELL:-Xclang -fgpu-default-stream=per-thread;-fgpu-flush-denormals-to-zero;-ffp-contract=off")
foreach(form "-dc" "-rdc=true" "-rdc;true" "--relocatable-device-code=true")
  options(${form} -O2)
  expect("${form}: relocatable device code" "${rdc};${out}" "ON;-O2")
endforeach()
options(-rdc=false)
expect("-rdc=false" "${rdc};${out}" "OFF;")
options(-gencode=arch=compute_90,code=sm_90 -arch=sm_80 -Xcudafe --diag_suppress=1 -O2)
expect("architecture options and -Xcudafe refused" "${refused}"
  "-gencode=arch=compute_90,code=sm_90;-arch=sm_80;-Xcudafe")
options(-Xcompiler)
expect_match("an option without its value refused" "${refused}" "-Xcompiler \\(without its value\\)")

# Entries of COMPILE_OPTIONS: generator expressions whose body is options.
options("$<$<COMPILE_LANGUAGE:CUDA>:--extended-lambda>" -Wall)
expect("a genex left empty is removed" "${out}" "-Wall")
options("$<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-fopenmp,-Wall>")
expect("a genex body translated" "${out}" "$<$<COMPILE_LANGUAGE:CUDA>:-fopenmp;-Wall>")
options("$<$<AND:$<COMPILE_LANGUAGE:CUDA>,$<CONFIG:Debug>>:-G>")
expect("a nested condition" "${out}" "$<$<AND:$<COMPILE_LANGUAGE:CUDA>,$<CONFIG:Debug>>:-g;--cuda-noopt-device-debug>")
options("$<$<COMPILE_LANGUAGE:CUDA>:-rdc=true>")
expect("rdc in a genex" "${rdc};${out}" "ON;")
