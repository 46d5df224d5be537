# PygraphEnable.cmake - pygraph_enable(), installed with the package.
#
#   pygraph_enable(<target> [SHARED_RUNTIME] [NO_RUNTIME]
#                  [CUDA_ARCH <sm_XX>] [PLUGIN_ARGS <opt>[=<value>]...])
#
# Turns the plugin on for <target>'s .cu sources and links the runtime
# (pygraph::runtime_static, or pygraph::runtime with SHARED_RUNTIME; none
# with NO_RUNTIME).  The plugin is built for clang ${PYGRAPH_LLVM_MAJOR}:
#  - with CMake's CUDA language enabled (CMAKE_CUDA_COMPILER a clang), the
#    plugin is added to the target's CUDA compiles;
#  - otherwise the .cu files are compiled as CUDA by the C++ compiler (which
#    must then be that clang++): -x cuda --cuda-path=${PYGRAPH_CUDA_PATH}
#    --cuda-gpu-arch=<CUDA_ARCH or PYGRAPH_CUDA_ARCH>.
# PLUGIN_ARGS are -fplugin-arg-pygraph-* options, e.g. min-launches=3.
# Without the CUDA language the flags are properties of the .cu source files
# (of the target's folder): a .cu file shared by several targets is compiled
# with the plugin for all of them, with the first pygraph_enable's flags.
include_guard(GLOBAL)

function(pygraph_enable target)
  cmake_parse_arguments(PARSE_ARGV 1 PG "SHARED_RUNTIME;NO_RUNTIME" "CUDA_ARCH" "PLUGIN_ARGS")
  if(NOT TARGET ${target})
    message(FATAL_ERROR "pygraph_enable: no target '${target}'")
  endif()
  if(NOT PG_CUDA_ARCH)
    set(PG_CUDA_ARCH "${PYGRAPH_CUDA_ARCH}")
  endif()
  get_target_property(plugin pygraph::plugin IMPORTED_LOCATION)
  set(flags "-fplugin=${plugin}")
  foreach(a IN LISTS PG_PLUGIN_ARGS)
    list(APPEND flags "-fplugin-arg-pygraph-${a}")
  endforeach()

  get_property(langs GLOBAL PROPERTY ENABLED_LANGUAGES)
  if(CUDA IN_LIST langs)
    if(NOT CMAKE_CUDA_COMPILER_ID STREQUAL "Clang")
      message(WARNING "pygraph_enable(${target}): CMAKE_CUDA_COMPILER is "
        "${CMAKE_CUDA_COMPILER_ID}; the plugin needs clang ${PYGRAPH_LLVM_MAJOR}")
    endif()
    foreach(f IN LISTS flags)
      target_compile_options(${target} PRIVATE "$<$<COMPILE_LANGUAGE:CUDA>:${f}>")
    endforeach()
  else()
    if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang"
       OR NOT CMAKE_CXX_COMPILER_VERSION VERSION_GREATER_EQUAL "${PYGRAPH_LLVM_MAJOR}"
       OR CMAKE_CXX_COMPILER_VERSION VERSION_GREATER_EQUAL "${PYGRAPH_LLVM_MAJOR}.999")
      message(WARNING "pygraph_enable(${target}): the C++ compiler is "
        "${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER_VERSION}; the plugin needs "
        "clang++-${PYGRAPH_LLVM_MAJOR} (set CMAKE_CXX_COMPILER)")
    endif()
    set(cuda_flags -x cuda "--cuda-path=${PYGRAPH_CUDA_PATH}" "--cuda-gpu-arch=${PG_CUDA_ARCH}"
        -Wno-unknown-cuda-version)
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
