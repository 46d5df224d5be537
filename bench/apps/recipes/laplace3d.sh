# laplace3d: 3D Laplace stencil, one kernel per iteration with pointer swap
repo=zjin-lcf/HeCBench
commit=f27000a5188f8ac79bd43fc95a1b3f890c18823d
path=src/laplace3d-cuda
sources="main.cu"
args="256 256 256 100 0"
compare='exact'
filter=''
time_regex='Average kernel execution time: ([0-9.eE+-]+)'

