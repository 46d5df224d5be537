# convolution1D: 1D convolution, three kernels x three types, each repeated
repo=zjin-lcf/HeCBench
commit=f27000a5188f8ac79bd43fc95a1b3f890c18823d
path=src/convolution1D-cuda
sources="main.cu"
args="262144 100"   # 180 loops; the CPU rand+reference per loop dominate (16M timed out)
compare='exact'
filter=''
time_regex='Average kernel execution time of [^:]*: ([0-9.eE+-]+)'

