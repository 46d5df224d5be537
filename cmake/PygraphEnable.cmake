# PygraphEnable.cmake - pygraph_enable(), installed with the package.
#
#   pygraph_enable(<target> [REMARKS] [SHARED_RUNTIME] [NO_RUNTIME]
#                  [CUDA_ARCH <arch>...] [PLUGIN_ARGS <opt>[=<value>]...])
#
# Turns the plugin on for <target>'s CUDA sources and links the runtime
# (pygraph::runtime_static, or pygraph::runtime with SHARED_RUNTIME; none
# with NO_RUNTIME).  The plugin runs in clang ${PYGRAPH_LLVM_MAJOR}:
#  - with CMake's CUDA language enabled, CMAKE_CUDA_COMPILER must be that
#    clang++ (else a configure error says what to set); the target's CUDA
#    compiles get the plugin, and its nvcc-style settings are made clang's
#    (PygraphCudaTarget.cmake);
#  - otherwise the .cu files are compiled as CUDA by the C++ compiler (which
#    must then be that clang++): -x cuda --cuda-path=${PYGRAPH_CUDA_PATH}
#    --cuda-gpu-arch=<each CUDA_ARCH, or PYGRAPH_CUDA_ARCH>.
# REMARKS: the plugin's remarks (-Rpass=pygraph -Rpass-missed=pygraph) in the
# build output.  CUDA_ARCH: the GPU architectures (90, sm_90, ...; with the
# CUDA language they replace the target's CUDA_ARCHITECTURES); one the toolkit
# or clang cannot build becomes the closest one it can (PygraphCudaArchs.cmake).
# PLUGIN_ARGS are -fplugin-arg-pygraph-* options, e.g. min-launches=3.
# Without the CUDA language the flags are properties of the .cu source files
# (of the target's folder): a .cu file shared by several targets is compiled
# with the plugin for all of them, with the first pygraph_enable's flags.
include_guard(GLOBAL)
include(${CMAKE_CURRENT_LIST_DIR}/PygraphCudaTarget.cmake)

function(pygraph_enable target)
  cmake_parse_arguments(PARSE_ARGV 1 PG "REMARKS;SHARED_RUNTIME;NO_RUNTIME" "" "CUDA_ARCH;PLUGIN_ARGS")
  if(NOT TARGET ${target})
    message(FATAL_ERROR "pygraph_enable: no target '${target}'")
  endif()
  if(PG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "pygraph_enable(${target}): unknown argument(s) ${PG_UNPARSED_ARGUMENTS}")
  endif()
  get_target_property(plugin pygraph::plugin IMPORTED_LOCATION)
  set(flags "-fplugin=${plugin}")
  foreach(a IN LISTS PG_PLUGIN_ARGS)
    list(APPEND flags "-fplugin-arg-pygraph-${a}")
  endforeach()
  if(PG_REMARKS)
    list(APPEND flags -Rpass=pygraph -Rpass-missed=pygraph)
  endif()

  get_property(langs GLOBAL PROPERTY ENABLED_LANGUAGES)
  if(CUDA IN_LIST langs)
    _pygraph_cuda_require_clang(${target})
    if(PG_CUDA_ARCH)
      set_property(TARGET ${target} PROPERTY PYGRAPH_CUDA_ARCH "${PG_CUDA_ARCH}")
    endif()
    _pygraph_cuda_enable(${target} "${flags}")
  else()
    _pygraph_cxx_enable(${target} "${flags}" "${PG_CUDA_ARCH}")
  endif()

  if(PG_NO_RUNTIME)
    return()
  endif()
  if(PG_SHARED_RUNTIME)
    target_link_libraries(${target} PRIVATE pygraph::runtime)
  else()
    target_link_libraries(${target} PRIVATE pygraph::runtime_static)
  endif()
endfunction()

# Without the CUDA language: the target's .cu files compiled as CUDA by the
# C++ compiler (see the top of the file).
function(_pygraph_cxx_enable target flags cuda_arch)
  get_target_property(plugin pygraph::plugin IMPORTED_LOCATION)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang"
     OR NOT CMAKE_CXX_COMPILER_VERSION VERSION_GREATER_EQUAL "${PYGRAPH_LLVM_MAJOR}"
     OR CMAKE_CXX_COMPILER_VERSION VERSION_GREATER_EQUAL "${PYGRAPH_LLVM_MAJOR}.999")
    message(FATAL_ERROR "pygraph_enable(${target}): the C++ compiler is "
      "${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER_VERSION} and the project does not "
      "enable CUDA; the plugin runs in clang ${PYGRAPH_LLVM_MAJOR}: configure a new build "
      "folder with -DCMAKE_CXX_COMPILER=${PYGRAPH_CLANGXX}")
  endif()
  if(NOT cuda_arch)
    set(cuda_arch "${PYGRAPH_CUDA_ARCH}")
  endif()
  _pygraph_cuda_archs(archs note ${cuda_arch})
  if(note)
    message(STATUS "pygraph_enable(${target}): CUDA_ARCH ${cuda_arch} built as ${archs}: ${note}")
  endif()
  set(cuda_flags -x cuda "--cuda-path=${PYGRAPH_CUDA_PATH}" -Wno-unknown-cuda-version)
  foreach(a IN LISTS archs)
    string(REGEX REPLACE "-(real|virtual)$" "" a "${a}")
    list(APPEND cuda_flags "--cuda-gpu-arch=sm_${a}")
  endforeach()
  get_target_property(srcs ${target} SOURCES)
  foreach(s IN LISTS srcs)
    if(NOT s MATCHES "\\.cu$")
      continue()
    endif()
    get_property(have SOURCE "${s}" TARGET_DIRECTORY ${target} PROPERTY COMPILE_OPTIONS)
    if("-fplugin=${plugin}" IN_LIST have)
      continue() # already enabled through another target
    endif()
    set_property(SOURCE "${s}" TARGET_DIRECTORY ${target} PROPERTY LANGUAGE CXX)
    set_property(SOURCE "${s}" TARGET_DIRECTORY ${target} APPEND PROPERTY
      COMPILE_OPTIONS ${cuda_flags} ${flags})
    # A rebuilt plugin recompiles the sources it transforms.
    set_property(SOURCE "${s}" TARGET_DIRECTORY ${target} APPEND PROPERTY
      OBJECT_DEPENDS "${plugin}")
  endforeach()
endfunction()
