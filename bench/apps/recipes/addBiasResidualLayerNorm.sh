# addBiasResidualLayerNorm: bias+residual+layernorm kernel repeated over shapes (OpenMP host reference)
repo=zjin-lcf/HeCBench
commit=f27000a5188f8ac79bd43fc95a1b3f890c18823d
path=src/addBiasResidualLayerNorm-cuda
sources="main.cu"
args="10000"
compare='exact'
filter=''
time_regex='Average execution time of AddBiasResidualLayerNorm \([^)]*\): ([0-9.eE+-]+)'
flags="-fopenmp=libgomp"
libs="-fopenmp=libgomp"
