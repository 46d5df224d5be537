# all-pairs-distance: all-pairs distance, three kernels each repeated (CPU reference)
repo=zjin-lcf/HeCBench
commit=f27000a5188f8ac79bd43fc95a1b3f890c18823d
path=src/all-pairs-distance-cuda
sources="main.cu"
args="1000"   # 3 kernels x iterations, ~75 us each
compare='exact'
filter='CPU time'
time_regex='Average kernel execution time: ([0-9.eE+-]+)'

