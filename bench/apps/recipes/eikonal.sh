# eikonal: fast iterative eikonal solver, convergence loop with host list updates
repo=zjin-lcf/HeCBench
commit=f27000a5188f8ac79bd43fc95a1b3f890c18823d
path=src/eikonal-cuda
sources="kernel.cu fim.cu timer.cpp main.cpp StructuredEikonal.cu"
args="-s 128"   # host setup/output dominate (-s 256: 2.0 s)
compare='exact'
filter='[Tt]ime'
time_regex='Time for solver : ([0-9.eE+-]+)'

