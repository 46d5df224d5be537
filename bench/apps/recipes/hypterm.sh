# hypterm: hypterm stencil, three kernels repeated
repo=zjin-lcf/HeCBench
commit=f27000a5188f8ac79bd43fc95a1b3f890c18823d
path=src/hypterm-cuda
sources="main.cpp reference.cpp kernels.cu"
args="100"
compare='exact'
filter=''
time_regex='Average kernel execution time \(k[0-9]\): ([0-9.eE+-]+)'

