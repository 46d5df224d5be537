# run_install_test.cmake - the install_consumer test (see CMakeLists.txt).
#   cmake -DBUILD_DIR=... -DCONSUMER_SRC=... -DWORK_DIR=... -DGENERATOR=...
#         -DCXX=... -DNM=... -DREADELF=... -DCUDA_PATH=... -P run_install_test.cmake
cmake_minimum_required(VERSION 3.20)
set(prefix "${WORK_DIR}/prefix")
set(cbuild "${WORK_DIR}/consumer-build")
file(REMOVE_RECURSE "${WORK_DIR}")

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "install_consumer: ${what} failed (${rc}):\n${out}\n${err}")
  endif()
  set(run_out "${out}${err}" PARENT_SCOPE)
endfunction()

# 1. install into a fresh prefix
run("cmake --install" "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${prefix}")
foreach(f lib/libpygraph.so lib/libpygraph_clang.so lib/libpygraph_rt.a
          lib/pygraph-shared/libpygraph_rt.so include/pygraph_rt.h bin/pygraph-clang++
          lib/cmake/pygraph/pygraphConfig.cmake lib/cmake/pygraph/pygraphConfigVersion.cmake
          lib/cmake/pygraph/PygraphEnable.cmake)
  if(NOT EXISTS "${prefix}/${f}")
    message(FATAL_ERROR "install_consumer: ${prefix}/${f} was not installed")
  endif()
endforeach()
message(STATUS "installed into ${prefix}")

# 2. a separate project: find_package(pygraph) + pygraph_enable()
run("configuring the consumer" "${CMAKE_COMMAND}" -S "${CONSUMER_SRC}" -B "${cbuild}"
    -G "${GENERATOR}" "-DCMAKE_CXX_COMPILER=${CXX}" "-DCMAKE_PREFIX_PATH=${prefix}"
    "-DPYGRAPH_CUDA_PATH=${CUDA_PATH}" -DCMAKE_BUILD_TYPE=Release)
run("building the consumer" "${CMAKE_COMMAND}" --build "${cbuild}" --verbose)
set(build_log "${run_out}")

# 3. the plugin ran: its remark, and the object calls the runtime
if(NOT build_log MATCHES "formed graph region in 'main'")
  message(FATAL_ERROR "install_consumer: no 'formed graph region' remark in the build:\n${build_log}")
endif()
if(NOT build_log MATCHES "-fplugin=${prefix}/lib/libpygraph.so")
  message(FATAL_ERROR "install_consumer: the compile did not use the installed plugin:\n${build_log}")
endif()
file(GLOB_RECURSE objs "${cbuild}/CMakeFiles/consumer_app.dir/*.o")
if(NOT objs)
  message(FATAL_ERROR "install_consumer: no object file under ${cbuild}")
endif()
run("nm" "${NM}" ${objs})
if(NOT run_out MATCHES "U __pygraph_region_begin" OR NOT run_out MATCHES "U __pygraph_cudaLaunchKernel")
  message(FATAL_ERROR "install_consumer: the object does not call the pygraph runtime:\n${run_out}")
endif()
message(STATUS "consumer built with the installed plugin: region remark, calls __pygraph_region_begin")
run("readelf" "${READELF}" -d "${cbuild}/consumer_app_shared")
if(NOT run_out MATCHES "libpygraph_rt.so" OR NOT run_out MATCHES "libcudart.so")
  message(FATAL_ERROR "install_consumer: consumer_app_shared does not use the shared runtime:\n${run_out}")
endif()
message(STATUS "consumer_app_shared links the installed shared runtime and the shared cudart")

# 4. the installed wrapper finds the installed plugin and runtime
run("bin/pygraph-clang++" "${prefix}/bin/pygraph-clang++" -x cuda "--cuda-path=${CUDA_PATH}"
    --cuda-gpu-arch=sm_90 -Wno-unknown-cuda-version -O2 "${CONSUMER_SRC}/app.cu"
    -o "${WORK_DIR}/wrapped_app")
run("nm" "${NM}" "${WORK_DIR}/wrapped_app")
if(NOT run_out MATCHES "T __pygraph_region_begin")
  message(FATAL_ERROR "install_consumer: the wrapper's program lacks the pygraph runtime")
endif()
message(STATUS "bin/pygraph-clang++ built a program with the installed plugin and runtime")

# 5. run it where there is a GPU
execute_process(COMMAND nvidia-smi -L RESULT_VARIABLE rc OUTPUT_VARIABLE gpus ERROR_QUIET)
if(NOT rc EQUAL 0 OR NOT gpus MATCHES "GPU")
  message(STATUS "install_consumer: no CUDA GPU found; built and checked, not run")
  return()
endif()
foreach(app consumer_app consumer_app_shared)
  run("running ${app}" "${cbuild}/${app}")
  if(NOT run_out MATCHES "consumer: ok")
    message(FATAL_ERROR "install_consumer: ${app} did not print 'consumer: ok':\n${run_out}")
  endif()
  message(STATUS "${app} ran on the GPU: ${run_out}")
endforeach()
