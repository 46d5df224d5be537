#!/usr/bin/env bash
# Run in a folder holding gpu-head.tar.gz (test/gpu/build_gpu.sh build --tar at HEAD).
# cufft_loop's filter run in 4 passes: its loop runs whole from the second pass on (a WHILE body
# holding two cuFFT executions as graphs captured from the calls), every mode, three rounds.
cd "$(dirname "$0")"; export LD_LIBRARY_PATH=/usr/local/cuda/lib64
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
mkdir -p /tmp/h && tar -xzf gpu-head.tar.gz -C /tmp/h; B=/tmp/h/gpu/bin
for r in 1 2 3; do for v in plain auto graph whole0; do bin=$B/cufft_loop_pygraph; env="PYGRAPH_MODE=auto"
  case $v in plain) bin=$B/cufft_loop_plain;; graph) env="PYGRAPH_MODE=graph";;
    whole0) env="PYGRAPH_MODE=graph PYGRAPH_WHOLE_LOOPS=0";; esac
  echo "cufft_loop 2000x4 $v r$r: $(env $env PYGRAPH_REPORT=1 timeout 60 $bin 2000 16384 4 2>&1 |
    grep -E 'loop_ms|checksum|whole loop|error|FAIL' | sed -E 's/pygraph: //' | cut -c1-420 | tr '\n' ' ')"
done; done
