# lulesh: LULESH hydrodynamics, many kernels per time step, convergence on time
repo=zjin-lcf/HeCBench
commit=f27000a5188f8ac79bd43fc95a1b3f890c18823d
path=src/lulesh-cuda
sources="lulesh.cu lulesh-init.cu lulesh-util.cu lulesh-viz.cu"
args="-i 100 -s 128 -r 11 -b 1 -c 1"
compare='exact'
filter='Elapsed|Grind|FOM'
time_regex='Elapsed time *= *([0-9.eE+-]+)'

