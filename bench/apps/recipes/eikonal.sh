# eikonal: fast iterative eikonal solver, convergence loop with host list updates
repo=zjin-lcf/HeCBench
commit=f27000a5188f8ac79bd43fc95a1b3f890c18823d
path=src/eikonal-cuda
sources="kernel.cu fim.cu timer.cpp main.cpp StructuredEikonal.cu"
args="-s 256"   # -s 512 writes a 512 MiB output.nrrd
compare='exact'
filter='[Tt]ime'
time_regex='Time for solver : ([0-9.eE+-]+)'

