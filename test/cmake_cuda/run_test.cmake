# run_test.cmake - the ctest cmake_cuda_project (see CMakeLists.txt).
#   cmake -DBUILD_DIR=... -DPROJECT_SRC=... -DWORK_DIR=... -DGENERATOR=... -DCLANGXX=...
#         -DNVCC=... -DNM=... -P run_test.cmake
#
# 1. installs pygraph into a fresh prefix;
# 2. copies project/ (a CUDA-language project set up for nvcc) and adds ONE
#    line to its CMakeLists.txt, pygraph_enable(app REMARKS);
# 3. configures it with the documented line (clang as the CUDA compiler, the
#    package through CMAKE_PROJECT_INCLUDE) and builds it: the plugin's remark
#    is in the build output, the object calls the runtime, the nvcc options are
#    gone from the compile lines and the program is linked by clang's offload
#    linker;
# 4. the same line on the project without the added line fails to build (the
#    project's nvcc settings are what pygraph_enable makes clang's);
# 5. with nvcc as the CUDA compiler, pygraph_enable is a configure error that
#    names CMAKE_CUDA_COMPILER;
# 6. where there is a GPU, the program's output equals that of the project
#    built by nvcc as it is.
cmake_minimum_required(VERSION 3.20)
set(prefix "${WORK_DIR}/prefix")
file(REMOVE_RECURSE "${WORK_DIR}")
# CMake's compiler probe with --cuda-gpu-arch=sm_52 fails in CUDA 13's ptxas and
# clang writes a crash reproducer (~11 MB) to TMPDIR each time: keep them in the
# work folder, removed by the next run, instead of the machine's /tmp.
file(MAKE_DIRECTORY "${WORK_DIR}/tmp")
set(ENV{TMPDIR} "${WORK_DIR}/tmp")

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "cmake_cuda_project: ${what} failed (${rc}):\n${out}\n${err}")
  endif()
  set(run_out "${out}${err}" PARENT_SCOPE)
endfunction()

function(fail why log)
  message(FATAL_ERROR "cmake_cuda_project: ${why}:\n${log}")
endfunction()

# The documented configure line (README "CMake with the CUDA language").
set(line "-DCMAKE_CUDA_COMPILER=${CLANGXX}"
  "-DCMAKE_PROJECT_INCLUDE=${prefix}/lib/cmake/pygraph/PygraphProjectInclude.cmake")
if(CMAKE_VERSION VERSION_LESS 3.31.8
   OR (CMAKE_VERSION VERSION_GREATER_EQUAL 4.0 AND CMAKE_VERSION VERSION_LESS 4.0.3))
  list(APPEND line "-DCMAKE_CUDA_FLAGS=--cuda-gpu-arch=sm_75")
endif()

# 1. install
run("cmake --install" "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${prefix}")

# 2. the project plus one line
set(src "${WORK_DIR}/project")
file(COPY "${PROJECT_SRC}/" DESTINATION "${src}")
file(APPEND "${src}/CMakeLists.txt" "pygraph_enable(app REMARKS)\n")

# 3. configure with the documented line, build
run("configuring the project" "${CMAKE_COMMAND}" -S "${src}" -B "${WORK_DIR}/build" -G "${GENERATOR}" ${line})
set(configure_log "${run_out}")
message(STATUS "configured:\n${configure_log}")
run("building the project" "${CMAKE_COMMAND}" --build "${WORK_DIR}/build" --verbose -j 2)
set(log "${run_out}")
if(NOT log MATCHES "main.cu:[0-9]+:[0-9]+: remark: formed graph region in 'main'")
  fail("no 'formed graph region' remark for main.cu in the build" "${log}")
endif()
if(log MATCHES "--extended-lambda|-lineinfo|--expt-relaxed-constexpr|-Wno-deprecated-gpu-targets")
  fail("an nvcc option reached clang" "${log}")
endif()
if(NOT log MATCHES "--offload-link[^\n]*-o app" OR log MATCHES "fatbinary|nvlink")
  fail("app was not linked by clang's offload linker alone" "${log}")
endif()
run("nm" "${NM}" "${WORK_DIR}/build/CMakeFiles/app.dir/main.cu.o")
if(NOT run_out MATCHES "U __pygraph_region_begin")
  fail("main.cu.o does not call the pygraph runtime" "${run_out}")
endif()
message(STATUS "built with one added line: region remark, main.cu.o calls __pygraph_region_begin")

# 4. without the added line, the nvcc settings break clang's build
execute_process(COMMAND "${CMAKE_COMMAND}" -S "${PROJECT_SRC}" -B "${WORK_DIR}/plain" -G "${GENERATOR}" ${line}
  RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
execute_process(COMMAND "${CMAKE_COMMAND}" --build "${WORK_DIR}/plain" -j 2
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 0)
  fail("the project built with clang without pygraph_enable: it no longer tests the nvcc settings" "${out}${err}")
endif()
message(STATUS "without the line, clang cannot build the project (as expected)")

# 5. nvcc as the CUDA compiler: a configure error naming the setting
if(NVCC)
  execute_process(COMMAND "${CMAKE_COMMAND}" -S "${src}" -B "${WORK_DIR}/nvcc" -G "${GENERATOR}"
      "-DCMAKE_CUDA_COMPILER=${NVCC}"
      "-DCMAKE_PROJECT_INCLUDE=${prefix}/lib/cmake/pygraph/PygraphProjectInclude.cmake"
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(FIND "${err}" "-DCMAKE_CUDA_COMPILER=${CLANGXX}" at)
  if(rc EQUAL 0 OR NOT err MATCHES "pygraph_enable\\(app\\): the CUDA compiler is NVIDIA" OR at EQUAL -1)
    fail("configuring with nvcc is not the configure error naming CMAKE_CUDA_COMPILER" "${out}${err}")
  endif()
  message(STATUS "with nvcc as the CUDA compiler: configure error naming -DCMAKE_CUDA_COMPILER=${CLANGXX}")
endif()

# 6. on a GPU: the same output as the nvcc build of the unchanged project
execute_process(COMMAND nvidia-smi -L RESULT_VARIABLE rc OUTPUT_VARIABLE gpus ERROR_QUIET)
if(NOT rc EQUAL 0 OR NOT gpus MATCHES "GPU" OR NOT NVCC)
  message(STATUS "cmake_cuda_project: no CUDA GPU (or no nvcc); built and checked, not run")
  return()
endif()
run("running app" "${WORK_DIR}/build/app")
set(ours "${run_out}")
run("configuring with nvcc" "${CMAKE_COMMAND}" -S "${PROJECT_SRC}" -B "${WORK_DIR}/nvcc-plain"
  -G "${GENERATOR}" "-DCMAKE_CUDA_COMPILER=${NVCC}")
run("building with nvcc" "${CMAKE_COMMAND}" --build "${WORK_DIR}/nvcc-plain" -j 2)
run("running the nvcc build" "${WORK_DIR}/nvcc-plain/app")
if(NOT ours MATCHES "cmake_cuda_project: sum" OR NOT ours STREQUAL run_out)
  fail("outputs differ (pygraph, then nvcc)" "${ours}\n${run_out}")
endif()
message(STATUS "app ran on the GPU with the nvcc build's output: ${ours}")
