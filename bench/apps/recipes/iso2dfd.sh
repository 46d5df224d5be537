# iso2dfd: 2D isotropic finite difference, one kernel per step with swapped buffers
repo=zjin-lcf/HeCBench
commit=f27000a5188f8ac79bd43fc95a1b3f890c18823d
path=src/iso2dfd-cuda
sources="iso2dfd.cu"
args="512 512 300"   # its CPU reference runs as many steps
compare='exact'
filter='Host time|Total kernel execution time'
time_regex='Average kernel execution time ([0-9.eE+-]+)'

