# maxFlops: peak-flops kernels (add/mul/mad x widths), each repeated
repo=zjin-lcf/HeCBench
commit=f27000a5188f8ac79bd43fc95a1b3f890c18823d
path=src/maxFlops-cuda
sources="main.cu"
args="1000"
compare='exact'
filter=''
time_regex='kernel execution time \([A-Za-z0-9]+\): ([0-9.eE+-]+)'
extra_paths="src/include"
flags="-I../include"
