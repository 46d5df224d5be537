# PygraphCudaArchs.cmake - CUDA_ARCHITECTURES values as clang builds them.
#
#   _pygraph_cuda_archs(<out_archs> <out_note> <value>...)
#
# <value>s are CMake CUDA_ARCHITECTURES entries (75, 90-real, 90a, all,
# all-major, native, OFF) or nvcc names (sm_90, compute_80), as a project's
# CMakeLists or pygraph_enable's CUDA_ARCH give them.  Every entry becomes one
# that clang ${PYGRAPH_LLVM_MAJOR} builds with the toolkit (the package's
# PYGRAPH_CLANG_CUDA_ARCHS, taken from the drivers' table in
# utils/pygraph_driver/arch.py, so that CMake and pygraph-nvcc agree):
#   below the lowest (CUDA 13 has nothing below sm_75)  -> the lowest
#   one clang cannot emit (sm_88, sm_110, ...)          -> the closest lower one (its
#                                                          PTX is compiled by the CUDA
#                                                          driver for the GPU at load time)
#   all / all-major                                     -> every / every major one
#   native, OFF                                         -> unchanged (CMake's business)
# A -real/-virtual suffix is kept; an `a` suffix only where the architecture
# has one.  Nothing is dropped; duplicates are.  <out_note> says what changed
# ("" when nothing did).
include_guard(GLOBAL)

function(_pygraph_cuda_archs out_archs out_note)
  set(known ${PYGRAPH_CLANG_CUDA_ARCHS})
  list(GET known 0 lowest)
  set(result "")
  set(raised "")
  set(lowered "")
  foreach(value IN LISTS ARGN)
    if(value MATCHES "^(native|OFF|FALSE|off|false)$")
      list(APPEND result "${value}")
      continue()
    elseif(value STREQUAL "all")
      list(APPEND result ${known})
      continue()
    elseif(value STREQUAL "all-major")
      list(APPEND result ${PYGRAPH_CLANG_CUDA_MAJOR_ARCHS})
      continue()
    elseif(NOT value MATCHES "^(sm_|compute_)?([0-9]+)([af]?)(-real|-virtual)?$")
      message(FATAL_ERROR "pygraph_enable: '${value}' is not a CUDA architecture "
        "(expected 90, 90-real, 90a, sm_90, all, all-major or native)")
    endif()
    set(num "${CMAKE_MATCH_2}")
    set(suffix "${CMAKE_MATCH_3}")
    set(kind "${CMAKE_MATCH_4}")
    if(num LESS lowest)
      list(APPEND raised "${value}")
      set(num ${lowest})
    elseif(NOT num IN_LIST known)
      set(lower ${lowest})
      foreach(k IN LISTS known)
        if(k LESS num)
          set(lower ${k})
        endif()
      endforeach()
      list(APPEND lowered "${value} as ${lower}")
      set(num ${lower})
    endif()
    if(NOT (suffix STREQUAL "a" AND num IN_LIST PYGRAPH_CLANG_CUDA_A_ARCHS))
      set(suffix "")
    endif()
    list(APPEND result "${num}${suffix}${kind}")
  endforeach()
  list(REMOVE_DUPLICATES result)
  set(note "")
  if(raised)
    list(JOIN raised ", " raised)
    string(APPEND note "the CUDA toolkit has nothing below sm_${lowest} (CUDA 13 dropped "
      "them): ${raised} built as ${lowest}. ")
  endif()
  if(lowered)
    list(JOIN lowered ", " lowered)
    string(APPEND note "clang ${PYGRAPH_LLVM_MAJOR} cannot build every architecture: "
      "${lowered} (the CUDA driver compiles that PTX for the GPU at load time). ")
  endif()
  set(${out_archs} "${result}" PARENT_SCOPE)
  string(STRIP "${note}" note)
  set(${out_note} "${note}" PARENT_SCOPE)
endfunction()
