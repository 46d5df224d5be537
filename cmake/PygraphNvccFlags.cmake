# PygraphNvccFlags.cmake - nvcc-only options in a CUDA-language project, as clang takes them.
#
#   _pygraph_nvcc_options(<out> <out_changes> <out_rdc> <out_refused> <entry>...)
#
# <entry>s are compile options as CMake stores them: plain options, or
# generator expressions whose body is options ($<$<COMPILE_LANGUAGE:CUDA>:--extended-lambda>).
# <out> gets the entries with every nvcc-only option of the table below
# replaced by its clang equivalent (a multi-word one as "SHELL:a b", so that
# CMake's de-duplication keeps it whole); an entry left empty is removed.
# <out_changes> lists "old -> new" for each option changed, <out_rdc> is ON
# when an option asked for relocatable device code (removed: the caller
# builds the target that way), <out_refused> lists the nvcc-only options
# that have no clang equivalent here.  Other options are clang's business
# (clang names an unknown one in its error).
#
#   nvcc                                             clang
#   --extended-lambda, --expt-extended-lambda,       (nothing: clang allows these lambdas
#   --expt-relaxed-constexpr                          and constexpr calls without a flag)
#   -Wno-deprecated-gpu-targets, --prec-div=*,       (nothing: pygraph_enable maps old
#   --prec-sqrt=*, --ftz=false, --fmad=true           architectures; clang's defaults)
#   -lineinfo, --generate-line-info                  -gline-tables-only
#   -G, --device-debug                               -g --cuda-noopt-device-debug
#   --use_fast_math                                  -fgpu-flush-denormals-to-zero
#                                                    -fgpu-approx-transcendentals
#   --ftz=true / --fmad=false                        -fgpu-flush-denormals-to-zero / -ffp-contract=off
#   -maxrregcount=N                                  -Xcuda-ptxas --maxrregcount=N
#   -Xcompiler=a,b  (--compiler-options)             a b
#   -Xptxas=a,b     (--ptxas-options)                -Xcuda-ptxas a -Xcuda-ptxas b
#   --default-stream=per-thread                      -DCUDA_API_PER_THREAD_DEFAULT_STREAM=1
#                                                    -Xclang -fgpu-default-stream=per-thread
#   -dc, -rdc=true, --relocatable-device-code=true   relocatable device code (<out_rdc>)
#   -rdc=false, --default-stream=legacy              (nothing: the default)
# Refused: -arch, -gencode, -code and their long forms (the architectures are
# CUDA_ARCHITECTURES'), -ccbin, -Xcudafe, -Xnvlink, -Xfatbin, -dlink, -dlto,
# --cudart, --keep.  An option's value may follow `=` or come as the next word.
include_guard(GLOBAL)

# Options that take a value as the next word when written without `=`.
set(_PYGRAPH_NVCC_VALUE_OPTS
  -Xcompiler --compiler-options -Xptxas --ptxas-options -maxrregcount --maxrregcount
  --default-stream -default-stream -rdc --relocatable-device-code --ftz -ftz --fmad -fmad
  --prec-div -prec-div --prec-sqrt -prec-sqrt)
set(_PYGRAPH_NVCC_REFUSED
  "^--?(arch|gencode|generate-code|gpu-architecture|gpu-code|code|ccbin|compiler-bindir|Xcudafe|Xnvlink|Xfatbin|dlink|device-link|dlto|cudart|keep|keep-dir)([= ].*)?$")

function(_pygraph_nvcc_options out out_changes out_rdc out_refused)
  set(result "")
  set(changes "")
  set(rdc OFF)
  set(refused "")
  set(entries "")
  set(pending "")
  foreach(entry IN LISTS ARGN) # an option and its value given as two entries: one
    if(pending)
      list(APPEND entries "${pending}=${entry}")
      set(pending "")
    elseif(entry IN_LIST _PYGRAPH_NVCC_VALUE_OPTS)
      set(pending "${entry}")
    else()
      list(APPEND entries "${entry}")
    endif()
  endforeach()
  if(pending)
    list(APPEND entries "${pending}")
  endif()
  foreach(entry IN LISTS entries)
    set(prefix "")
    set(suffix "")
    set(body "${entry}")
    if(entry MATCHES "^(\\$<.*>:)([^<>]*)>$")
      set(prefix "${CMAKE_MATCH_1}")
      set(body "${CMAKE_MATCH_2}")
      set(suffix ">")
    endif()
    _pygraph_nvcc_words(words "${body}")
    if(NOT words STREQUAL body)
      string(REPLACE ";" " " old "${body}")
      string(REPLACE ";" " " new "${words}")
      if(new STREQUAL "")
        set(new "(nothing)")
      endif()
      list(APPEND changes "${old} -> ${new}")
    endif()
    if(words)
      list(JOIN words ";" words)
      list(APPEND result "${prefix}${words}${suffix}")
    endif()
    list(APPEND refused ${_pg_refused})
    if(_pg_rdc)
      set(rdc ON)
    endif()
  endforeach()
  set(${out} "${result}" PARENT_SCOPE)
  set(${out_changes} "${changes}" PARENT_SCOPE)
  set(${out_rdc} ${rdc} PARENT_SCOPE)
  set(${out_refused} "${refused}" PARENT_SCOPE)
endfunction()

# <out>: the words of one entry (a ;-list of options) translated; sets
# _pg_rdc and _pg_refused in the caller.
function(_pygraph_nvcc_words out words)
  set(result "")
  set(rdc OFF)
  set(refused "")
  set(pending "")
  foreach(w IN LISTS words)
    if(pending)
      set(w "${pending}=${w}")
      set(pending "")
    elseif(w IN_LIST _PYGRAPH_NVCC_VALUE_OPTS)
      set(pending "${w}")
      continue()
    endif()
    _pygraph_nvcc_word(new "${w}")
    if(new STREQUAL "<rdc>")
      set(rdc ON)
    elseif(new STREQUAL "<refused>")
      list(APPEND refused "${w}")
      list(APPEND result "${w}")
    elseif(NOT new STREQUAL "<none>")
      list(APPEND result ${new})
    endif()
  endforeach()
  if(pending)
    list(APPEND refused "${pending} (without its value)")
  endif()
  set(${out} "${result}" PARENT_SCOPE)
  set(_pg_rdc ${rdc} PARENT_SCOPE)
  set(_pg_refused "${refused}" PARENT_SCOPE)
endfunction()

# <out>: the clang words for one nvcc word (itself when it is not nvcc-only),
# <none> (dropped), <rdc> or <refused>.
function(_pygraph_nvcc_word out w)
  set(v "")
  if(w MATCHES "^[^=]+=(.*)$")
    set(v "${CMAKE_MATCH_1}")
  endif()
  set(new "${w}")
  if(w MATCHES "^--?(extended-lambda|expt-extended-lambda|expt-relaxed-constexpr|Wno-deprecated-gpu-targets)$"
     OR w MATCHES "^--?(prec-div|prec-sqrt)=" OR w MATCHES "^--?(ftz=false|fmad=true|rdc=false|relocatable-device-code=false|default-stream=(legacy|null))$")
    set(new "<none>")
  elseif(w MATCHES "^(-lineinfo|--generate-line-info)$")
    set(new "-gline-tables-only")
  elseif(w MATCHES "^(-G|--device-debug)$")
    set(new "-g;--cuda-noopt-device-debug")
  elseif(w MATCHES "^--?use_fast_math$")
    set(new "-fgpu-flush-denormals-to-zero;-fgpu-approx-transcendentals")
  elseif(w MATCHES "^--?ftz=true$")
    set(new "-fgpu-flush-denormals-to-zero")
  elseif(w MATCHES "^--?fmad=false$")
    set(new "-ffp-contract=off")
  elseif(w MATCHES "^--?maxrregcount=")
    set(new "SHELL:-Xcuda-ptxas --maxrregcount=${v}")
  elseif(w MATCHES "^(-Xcompiler|--compiler-options)=")
    string(REPLACE "," ";" new "${v}")
  elseif(w MATCHES "^(-Xptxas|--ptxas-options)=")
    string(REPLACE "," ";" parts "${v}")
    set(new "")
    foreach(p IN LISTS parts)
      list(APPEND new "SHELL:-Xcuda-ptxas ${p}")
    endforeach()
  elseif(w MATCHES "^--?default-stream=per-thread$")
    set(new "-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1;SHELL:-Xclang -fgpu-default-stream=per-thread")
  elseif(w MATCHES "^(-dc|--device-c|-rdc=true|--relocatable-device-code=true)$")
    set(new "<rdc>")
  elseif(w MATCHES "${_PYGRAPH_NVCC_REFUSED}")
    set(new "<refused>")
  endif()
  set(${out} "${new}" PARENT_SCOPE)
endfunction()
