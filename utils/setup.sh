#!/usr/bin/env bash
# setup.sh - install pygraph's build dependencies (Debian 12, as root or with
# sudo) and configure + build it into ./build (or $PYGRAPH_BUILD).
#
#   utils/setup.sh            # deps + build
#   PYGRAPH_SKIP_APT=1 utils/setup.sh   # build only
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${PYGRAPH_BUILD:-$repo/build}

if [[ -z ${PYGRAPH_SKIP_APT:-} ]]; then
  sudo=""
  [[ $(id -u) -ne 0 ]] && sudo=sudo
  pkgs=(clang-22 llvm-22-dev libclang-22-dev llvm-22-tools lld-22 cmake ninja-build python3)
  missing=()
  for p in "${pkgs[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  if ((${#missing[@]})); then
    echo "== installing ${missing[*]}"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
  # utils/pygraph-report draws its plots with matplotlib (its test is skipped
  # without it); a Python that pip may not install into just goes without.
  if ! python3 -c "import matplotlib" 2>/dev/null; then
    echo "== installing matplotlib (pip)"
    python3 -m pip install --quiet matplotlib >/dev/null 2>&1 ||
      echo "setup.sh: matplotlib not installed (pip failed): pygraph-report plot is unavailable"
  fi
fi
if [[ ! -f ${PYGRAPH_CUDA_PATH:-/usr/local/cuda}/include/cuda_runtime_api.h ]]; then
  echo "setup.sh: CUDA toolkit not found at ${PYGRAPH_CUDA_PATH:-/usr/local/cuda} (set PYGRAPH_CUDA_PATH)" >&2
  exit 1
fi

echo "== configuring $build"
cmake -S "$repo" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
  -DPYGRAPH_CUDA_PATH="${PYGRAPH_CUDA_PATH:-/usr/local/cuda}" >/dev/null
echo "== building (plugin, runtime, unit tests, examples)"
cmake --build "$build" -j "$(nproc)"
