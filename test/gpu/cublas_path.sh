# cublas_path.sh - sourced by run_gpu.sh and run_bench.sh (build_gpu.sh
# copies it into the bundle beside them): examples that call cuBLAS
# (examples/cublas_loop.cu) link the shared libcublas, which a GPU machine
# may hold only in a pip wheel (nvidia-cublas), not under /usr/local/cuda.
#
#   cublas_soname <binary>     the libcublas.so.<N> the binary needs, or nothing
#   cublas_dir <soname>        a folder holding it: $PYGRAPH_CUBLAS_DIR, the
#                              nvidia.cublas wheel's lib/, any site-packages,
#                              /usr/local/cuda*/lib64; nothing when none does
#   cublas_ready <binary>      0 when the binary's libcublas loads: found by the
#                              dynamic loader already, or its folder prepended
#                              to LD_LIBRARY_PATH (said once on stderr); 1 with
#                              a "SKIP" line on stderr when it is nowhere
# bash + coreutils (python3 and ldd used when there).

cublas_soname() {
  grep -ao 'libcublas\.so\.[0-9][0-9]*' "$1" 2>/dev/null | head -n1
}

cublas_dir() {
  local so=$1 d f sp
  for d in ${PYGRAPH_CUBLAS_DIR:-}; do
    [[ -e $d/$so ]] && { echo "$d"; return; }
  done
  if command -v python3 >/dev/null 2>&1; then
    d=$(python3 -c 'import os, nvidia.cublas as m; print(os.path.join(list(m.__path__)[0], "lib"))' 2>/dev/null)
    [[ -n $d && -e $d/$so ]] && { echo "$d"; return; }
    for sp in $(python3 -c 'import site; print(" ".join(site.getsitepackages() + [site.getusersitepackages()]))' 2>/dev/null); do
      f=$(find "$sp" -maxdepth 5 -name "$so" -print -quit 2>/dev/null)
      [[ -n $f ]] && { dirname "$f"; return; }
    done
  fi
  for d in /usr/local/cuda*/lib64 /usr/local/cuda*/targets/*/lib; do
    [[ -e $d/$so ]] && { echo "$d"; return; }
  done
}

# Does the dynamic loader find every library of $1 (ldd; without ldd: yes)?
cublas_loads() {
  command -v ldd >/dev/null 2>&1 || return 0
  ! ldd "$1" 2>/dev/null | grep -q 'libcublas.* => not found'
}

cublas_ready() {
  local exe=$1 so d
  so=$(cublas_soname "$exe")
  [[ -z $so ]] && return 0                    # no cuBLAS in this program
  cublas_loads "$exe" && return 0
  d=$(cublas_dir "$so")
  if [[ -z $d ]]; then
    echo "SKIP: $(basename "$exe"): no $so found (not loadable, no nvidia-cublas wheel," \
         "none under /usr/local/cuda*; set PYGRAPH_CUBLAS_DIR)" >&2
    return 1
  fi
  export LD_LIBRARY_PATH="$d${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  echo "== $so from $d (prepended to LD_LIBRARY_PATH)" >&2
  cublas_loads "$exe"
}
