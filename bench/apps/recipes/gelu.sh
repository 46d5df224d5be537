# gelu: GELU activation, baseline and vectorised kernels repeated
repo=zjin-lcf/HeCBench
commit=f27000a5188f8ac79bd43fc95a1b3f890c18823d
path=src/gelu-cuda
sources="main.cu"
args="8 512 1024 100"   # host init + reference scale with the size (8 4096 2048: 7.2 s)
compare='exact'
filter=''
time_regex='Average execution time of [a-z]+ kernel ([0-9.eE+-]+)'

