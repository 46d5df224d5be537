#!/usr/bin/env bash
# diag_call.sh: the diagnoses issues 17 and 39 wait for, in one device call.  Beside it (the
# carried folder): gpu-head.tar.gz (`test/gpu/build_gpu.sh build --tar`), apps-head.tar.xz
# (`bench/apps/build_apps.sh --jobs 2 adam hadamard ...`) and wcv/ (`bench/while_cond_variants.sh
# build wcv base= prof=-DPYGRAPH_WHILE_PROFILE noframe=-DPYGRAPH_EVAL_STACK_SHARED`).  Prints:
# - the host's cost of a region's first iteration on this machine's CPU (fake backend);
# - the WHILE condition kernel's cycles a step by phase and whether its block was staged
#   (while_vs_pygraph against the `prof` module), beside the unprofiled one and one without
#   the local-memory frame of the exit tests' stack (`noframe`);
# - adam with 1 and 3 launches, plain / eager / auto (the one-time cost alone), 5 runs each;
# - hadamard's timed-loop segments in auto (what its per-size loops of 100 launches run).
here=$(cd "$(dirname "$0")" && pwd); export LD_LIBRARY_PATH=/usr/local/cuda/lib64
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
mkdir -p /tmp/h && tar -xzf $here/gpu-head.tar.gz -C /tmp/h
echo "== a region's first iteration (host CPU, fake backend)"; /tmp/h/gpu/bin/pygraph_bench_first_iteration 200
for r in 1 2; do for v in base prof noframe; do
  echo "wcv $v r$r: $(PYGRAPH_MODE=graph timeout 60 $here/wcv/while_vs_pygraph_$v 16384 4000 3 2>&1 |
    grep -E 'us/iteration|pygraph_while_condition' | sort | uniq -c | tr '\n' ' ')"
done; done
mkdir -p /tmp/ec && tar -xJf $here/apps-head.tar.xz -C /tmp/ec; B=/tmp/ec/apps-gpu
d=$B/adam/src/adam-cuda
for rep in 1 3; do for v in plain eager auto; do bin=pygraph; [[ $v == plain ]] && bin=plain
  echo "adam repeat=$rep $v: $(for r in 1 2 3 4 5; do (cd $d && PYGRAPH_MODE=$v timeout 30 ./$bin 10000 20 $rep 2>&1 |
    sed -E -n 's/.*Average kernel execution time ([0-9.eE+-]+).*/\1/p'); done | tr '\n' ' ')"
done; done
d=$B/hadamard/src/hadamard-cuda
(cd $d && PYGRAPH_REPORT=1 timeout 30 ./pygraph 128 100 2>&1 | grep -E 'decision=' | grep 'main.cu:279' |
  sed -E 's/ (site|file)=[^ ]*//g' | cut -c1-600)
# What auto does with each new signature of the float type's timed loop (one per size).
(cd $d && PYGRAPH_DEBUG=1 timeout 30 ./pygraph 128 100 2>&1 | grep -E 'main.cu:279' |
  grep -m 70 -F '<float>' | sed -E 's/pygraph: debug: //; s/void hadamard_transform<float>\(int, int, int\) //' | cut -c1-170)
# The one-time cost of adam's timed loop, by pygraph's own calls: with PYGRAPH_DEBUG=1 the
# region's first entry and each of pygraph's slow CUDA calls are stamped lines (port_trace.h);
# and the loop with every module loaded at start (CUDA_MODULE_LOADING=EAGER): is it a lazy load?
d=$B/adam/src/adam-cuda
for v in eager auto; do echo "adam repeat=1 $v debug:"
  (cd $d && PYGRAPH_MODE=$v PYGRAPH_DEBUG=1 timeout 30 ./pygraph 10000 20 1 2>&1 |
    grep -E 'first entry|port |Average' | sed -E 's/pygraph: debug: //' | head -30 | cut -c1-150)
done
for v in plain eager auto; do bin=pygraph; [[ $v == plain ]] && bin=plain
  echo "adam repeat=1 $v modules-eager: $(for r in 1 2 3 4 5; do (cd $d && CUDA_MODULE_LOADING=EAGER PYGRAPH_MODE=$v timeout 30 ./$bin 10000 20 1 2>&1 |
    sed -E -n 's/.*Average kernel execution time ([0-9.eE+-]+).*/\1/p'); done | tr '\n' ' ')"
done
# cusparse_loop after the workspace-query check (70fcd8f): the suite's line, bit-identical to plain.
echo "== cusparse_loop"; ONLY=cusparse_loop RUN_TIMEOUT=30 bash /tmp/h/gpu/run_gpu.sh /tmp/h/gpu /tmp/cs 2>&1 | tail -4 | cut -c1-300
