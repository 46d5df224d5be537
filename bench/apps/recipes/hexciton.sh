# hexciton: hexciton benchmark (quantum dynamics), several kernel variants each repeated
repo=zjin-lcf/HeCBench
commit=f27000a5188f8ac79bd43fc95a1b3f890c18823d
path=src/hexciton-cuda
sources="main.cu utils.cu reference.cu"
args=""
compare='exact'
filter='time'
time_regex='Total kernel time for all benchmarks ([0-9.eE+-]+)'

# 1001 iterations (each a host copy + sync + launch) x 14 kernels took 4 s; the count is #ifndef.
flags="-DNUM_ITERATIONS=151"
