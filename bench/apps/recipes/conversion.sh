# conversion: type conversion kernels for many type pairs, each repeated
repo=zjin-lcf/HeCBench
commit=f27000a5188f8ac79bd43fc95a1b3f890c18823d
path=src/conversion-cuda
sources="main.cu"
args="67108864 10"
compare='exact'
filter='average time'
time_regex='average time\(sec\):([0-9.eE+-]+)'

