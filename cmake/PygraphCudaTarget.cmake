# PygraphCudaTarget.cmake - pygraph_enable() for a target of a project with CMake's CUDA language.
#
# CMAKE_CUDA_COMPILER must be the clang++ the plugin runs in (else a configure
# error says what to set).  The target's CUDA compiles get the plugin; the
# rest is done at the end of the folder that creates the target (cmake_language
# DEFER), so that it sees what the project sets after the pygraph_enable line.
# Clang then compiles the project's CUDA code, which was set up for nvcc, so the
# target and the targets it links (directly or not; these without the plugin)
# are made clang's:
#  - nvcc-only options in CMAKE_CUDA_FLAGS(_<CONFIG>) of the target's folder and
#    in each target's COMPILE_OPTIONS become clang's (PygraphNvccFlags.cmake).
#    The folder's CMAKE_CUDA_FLAGS are rewritten for all its targets, since clang
#    compiles them all.  An option with no clang equivalent is a configure error,
#    and so are nvcc-only options in CMAKE_CUDA_FLAGS of another folder.
#  - CUDA_ARCHITECTURES (or pygraph_enable's CUDA_ARCH for the target) become
#    architectures clang builds (PygraphCudaArchs.cmake).
#  - relocatable device code (CUDA_SEPARABLE_COMPILATION, -dc, -rdc=true) is
#    compiled with -fgpu-rdc, and a program or shared library that has or links
#    such code links it with clang's offload linker.  CMake's own device link
#    for clang runs `fatbinary -im=...`, an option CUDA 13's fatbinary no longer
#    has (CMake 3.25 to 4.x), so it is turned off (CUDA_SEPARABLE_COMPILATION,
#    CUDA_RESOLVE_DEVICE_SYMBOLS OFF).
#  - what nvcc gives CUDA code and clang does not (_pygraph_cuda_nvcc_compat).
# Every change is a `pygraph_enable(<target>): ...` status line.
include_guard(GLOBAL)
include(${CMAKE_CURRENT_LIST_DIR}/PygraphCudaArchs.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/PygraphNvccFlags.cmake)

# A configure error unless CMake's CUDA compiler is the clang the plugin was built for.
function(_pygraph_cuda_require_clang target)
  set(major ${PYGRAPH_LLVM_MAJOR})
  if(CMAKE_CUDA_COMPILER_ID STREQUAL "Clang"
     AND CMAKE_CUDA_COMPILER_VERSION VERSION_GREATER_EQUAL major
     AND CMAKE_CUDA_COMPILER_VERSION VERSION_LESS "${major}.999")
    return()
  endif()
  set(clang "${PYGRAPH_CLANGXX}")
  if(NOT clang)
    set(clang "clang++-${major}")
  endif()
  set(old_cmake "")
  if(CMAKE_VERSION VERSION_LESS 3.31.8
     OR (CMAKE_VERSION VERSION_GREATER_EQUAL 4.0 AND CMAKE_VERSION VERSION_LESS 4.0.3))
    string(CONCAT old_cmake " -DCMAKE_CUDA_FLAGS=--cuda-gpu-arch=sm_75\n(the second because "
      "CMake ${CMAKE_VERSION} tries to detect clang with GPU architectures CUDA 13 no longer "
      "has; CMake 3.31.8, 4.0.3 and later do not need it)")
  endif()
  message(FATAL_ERROR "pygraph_enable(${target}): the CUDA compiler is "
    "${CMAKE_CUDA_COMPILER_ID} ${CMAKE_CUDA_COMPILER_VERSION} (${CMAKE_CUDA_COMPILER}); "
    "the pygraph plugin runs in clang ${major}, which then compiles the project's CUDA code "
    "(nvcc-only options are translated). Configure a new build folder (its CUDA compiler "
    "cannot change) with\n  -DCMAKE_CUDA_COMPILER=${clang}${old_cmake}\n")
endfunction()

# The plugin on the target's CUDA compiles, and the deferred rest.
function(_pygraph_cuda_enable target flags)
  get_target_property(done ${target} PYGRAPH_ENABLED)
  if(done)
    message(FATAL_ERROR "pygraph_enable(${target}) was called twice")
  endif()
  set_property(TARGET ${target} PROPERTY PYGRAPH_ENABLED ON)
  foreach(f IN LISTS flags)
    target_compile_options(${target} PRIVATE "$<$<COMPILE_LANGUAGE:CUDA>:${f}>")
  endforeach()
  get_target_property(dir ${target} SOURCE_DIR)
  if(dir STREQUAL CMAKE_CURRENT_SOURCE_DIR)
    cmake_language(EVAL CODE "cmake_language(DEFER CALL _pygraph_cuda_finish [==[${target}]==])")
  else()
    _pygraph_cuda_finish(${target}) # the target's folder may be finished: no deferral there
  endif()
endfunction()

# Runs at the end of the target's folder, as if called there (PARENT_SCOPE is
# the folder): its CMAKE_CUDA_FLAGS, then the target and the targets it links.
function(_pygraph_cuda_finish target)
  get_target_property(dir ${target} SOURCE_DIR)
  _pygraph_cuda_folder_flags(${target} "${dir}" rdc)
  foreach(var IN LISTS _pg_folder_vars)
    set(${var} "${${var}}" PARENT_SCOPE)
  endforeach()
  _pygraph_cuda_closure(targets ${target})
  set(any_rdc ${rdc})
  set(dirs "${dir}")
  foreach(t IN LISTS targets)
    get_target_property(t_dir ${t} SOURCE_DIR)
    if(NOT t_dir IN_LIST dirs) # only checked: another folder's variables are not ours to set
      list(APPEND dirs "${t_dir}")
      _pygraph_cuda_folder_flags(${t} "${t_dir}" t_rdc)
    endif()
    _pygraph_cuda_clang_ready(${t} "${target}" ${rdc})
    get_target_property(t_rdc ${t} PYGRAPH_RDC)
    if(t_rdc)
      set(any_rdc ON)
    endif()
  endforeach()
  get_target_property(type ${target} TYPE)
  if(any_rdc AND type MATCHES "^(EXECUTABLE|SHARED_LIBRARY|MODULE_LIBRARY)$")
    set_target_properties(${target} PROPERTIES CUDA_RESOLVE_DEVICE_SYMBOLS OFF LINKER_LANGUAGE CUDA)
    target_link_options(${target} PRIVATE -fgpu-rdc --offload-link
      "--cuda-path=${CMAKE_CUDA_COMPILER_TOOLKIT_ROOT}")
  endif()
endfunction()

# CMAKE_CUDA_FLAGS and CMAKE_CUDA_FLAGS_<CONFIG> of <dir> for clang.  The
# variables changed are set in the caller, their names in _pg_folder_vars;
# <out_rdc> is ON when they asked for relocatable device code.
function(_pygraph_cuda_folder_flags target dir out_rdc)
  set(vars CMAKE_CUDA_FLAGS)
  foreach(config IN LISTS CMAKE_CONFIGURATION_TYPES CMAKE_BUILD_TYPE ITEMS Debug Release RelWithDebInfo MinSizeRel)
    string(TOUPPER "CMAKE_CUDA_FLAGS_${config}" var)
    list(APPEND vars ${var})
  endforeach()
  list(REMOVE_DUPLICATES vars)
  set(changed "")
  set(any_rdc OFF)
  foreach(var IN LISTS vars)
    get_directory_property(value DIRECTORY "${dir}" DEFINITION ${var})
    separate_arguments(words UNIX_COMMAND "${value}")
    _pygraph_nvcc_options(new changes rdc refused ${words})
    _pygraph_cuda_refuse(${target} "${var} of ${dir}" "${refused}")
    if(changes AND NOT dir STREQUAL CMAKE_CURRENT_SOURCE_DIR)
      message(FATAL_ERROR "pygraph_enable(${target}): ${var} of ${dir} has nvcc-only options "
        "(${changes}); call pygraph_enable(${target}) in ${dir}/CMakeLists.txt "
        "(NO_RUNTIME for a library)")
    elseif(changes)
      string(REPLACE "SHELL:" "" new "${new}")
      list(JOIN new " " new)
      set(${var} "${new}" PARENT_SCOPE)
      list(APPEND changed ${var})
      list(JOIN changes ", " changes)
      message(STATUS "pygraph_enable(${target}): ${var} for clang: ${changes}")
    endif()
    if(rdc)
      set(any_rdc ON)
    endif()
  endforeach()
  set(_pg_folder_vars "${changed}" PARENT_SCOPE)
  set(${out_rdc} ${any_rdc} PARENT_SCOPE)
endfunction()

# <out>: <target> and the targets of this build it links, directly or not.
function(_pygraph_cuda_closure out target)
  set(todo ${target})
  set(seen "")
  while(todo)
    list(POP_FRONT todo t)
    if(t IN_LIST seen OR NOT TARGET "${t}")
      continue()
    endif()
    get_target_property(imported ${t} IMPORTED)
    get_target_property(type ${t} TYPE)
    if(imported OR type STREQUAL "INTERFACE_LIBRARY")
      continue()
    endif()
    list(APPEND seen ${t})
    get_target_property(libs ${t} LINK_LIBRARIES)
    foreach(lib IN LISTS libs)
      if(TARGET "${lib}")
        list(APPEND todo "${lib}")
      endif()
    endforeach()
  endwhile()
  set(${out} "${seen}" PARENT_SCOPE)
endfunction()

# One target's options, architectures and relocatable device code for clang
# (once per target; <by> is the pygraph_enable target, for the messages).
function(_pygraph_cuda_clang_ready t by folder_rdc)
  get_target_property(done ${t} PYGRAPH_CLANG_READY)
  if(done)
    return()
  endif()
  set_property(TARGET ${t} PROPERTY PYGRAPH_CLANG_READY ON)
  set(who "pygraph_enable(${by})")
  if(NOT t STREQUAL by)
    set(who "${who}, target ${t}")
  endif()
  set(rdc ${folder_rdc})
  get_target_property(options ${t} COMPILE_OPTIONS)
  if(options)
    _pygraph_nvcc_options(new changes options_rdc refused ${options})
    _pygraph_cuda_refuse(${by} "COMPILE_OPTIONS of ${t}" "${refused}")
    if(changes)
      set_property(TARGET ${t} PROPERTY COMPILE_OPTIONS "${new}")
      list(JOIN changes ", " changes)
      message(STATUS "${who}: compile options for clang: ${changes}")
    endif()
    if(options_rdc)
      set(rdc ON)
    endif()
  endif()
  _pygraph_cuda_archs_for(${t} "${who}")
  get_target_property(sep ${t} CUDA_SEPARABLE_COMPILATION)
  if(sep OR rdc)
    set_target_properties(${t} PROPERTIES CUDA_SEPARABLE_COMPILATION OFF PYGRAPH_RDC ON)
    target_compile_options(${t} PRIVATE "$<$<COMPILE_LANGUAGE:CUDA>:-fgpu-rdc>")
    message(STATUS "${who}: relocatable device code compiled by clang (-fgpu-rdc) and "
      "linked by clang's offload linker")
  endif()
  _pygraph_cuda_nvcc_compat(${t})
endfunction()

# What nvcc gives CUDA code and clang does not, as pygraph-nvcc gives it
# (utils/pygraph_driver/nvcc_plan.py): the toolkit's include/cccl (thrust,
# cub), `register` accepted, the headers pygraph-nvcc pre-includes (nvcc's
# host min()/max(), __nv_atomic builtins, __CUDACC__ ...: the package's
# PYGRAPH_NVCC_COMPAT_HEADERS), __CUDACC_VER_MAJOR__/MINOR__/BUILD__; and no
# warning that clang does not know the toolkit's version.
function(_pygraph_cuda_nvcc_compat t)
  set(cuda "$<COMPILE_LANGUAGE:CUDA>")
  set(options -Wno-unknown-cuda-version -Wno-register)
  foreach(h IN LISTS PYGRAPH_NVCC_COMPAT_HEADERS)
    list(APPEND options "SHELL:-include ${PYGRAPH_NVCC_COMPAT_DIR}/${h}")
  endforeach()
  foreach(o IN LISTS options)
    target_compile_options(${t} PRIVATE "$<${cuda}:${o}>")
  endforeach()
  set(cccl "${CMAKE_CUDA_COMPILER_TOOLKIT_ROOT}/include/cccl")
  if(IS_DIRECTORY "${cccl}")
    target_include_directories(${t} SYSTEM PRIVATE "$<${cuda}:${cccl}>")
  endif()
  if(CMAKE_CUDA_COMPILER_TOOLKIT_VERSION MATCHES "^([0-9]+)\\.([0-9]+)")
    target_compile_definitions(${t} PRIVATE "$<${cuda}:__CUDACC_VER_MAJOR__=${CMAKE_MATCH_1}>"
      "$<${cuda}:__CUDACC_VER_MINOR__=${CMAKE_MATCH_2}>" "$<${cuda}:__CUDACC_VER_BUILD__=0>")
  endif()
endfunction()

function(_pygraph_cuda_refuse target where refused)
  if(refused)
    list(JOIN refused ", " refused)
    message(FATAL_ERROR "pygraph_enable(${target}): ${where}: nvcc-only option(s) ${refused} "
      "have no clang equivalent here. GPU architectures belong in CUDA_ARCHITECTURES "
      "(or pygraph_enable's CUDA_ARCH); remove the others for clang.")
  endif()
endfunction()

function(_pygraph_cuda_archs_for t who)
  get_target_property(archs ${t} PYGRAPH_CUDA_ARCH)
  if(NOT archs)
    get_target_property(archs ${t} CUDA_ARCHITECTURES)
  endif()
  if(NOT archs)
    return() # none, or OFF: the project passes its own architecture options
  endif()
  _pygraph_cuda_archs(new note ${archs})
  set_property(TARGET ${t} PROPERTY CUDA_ARCHITECTURES "${new}")
  if(note)
    message(STATUS "${who}: CUDA_ARCHITECTURES ${archs} built as ${new}: ${note}")
  endif()
endfunction()
