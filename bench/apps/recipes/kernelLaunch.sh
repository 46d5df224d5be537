# kernelLaunch: empty kernels with small/medium/large argument lists launched many times (launch overhead)
repo=zjin-lcf/HeCBench
commit=f27000a5188f8ac79bd43fc95a1b3f890c18823d
path=src/kernelLaunch-cuda
sources="main.cu"
args="25000"   # 6 loops of empty launches, ~3 us each
compare='exact'
filter=''
time_regex='Average execution time of kernelWith[A-Za-z]+: ([0-9.eE+-]+)'

