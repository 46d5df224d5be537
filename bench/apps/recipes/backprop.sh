# backprop: back-propagation training, two kernels per layer with copies
repo=zjin-lcf/HeCBench
commit=f27000a5188f8ac79bd43fc95a1b3f890c18823d
path=src/backprop-cuda
sources="backprop.cu facetrain.cu imagenet.cu main.cu"
args="65536"
compare='exact'
filter='time'
time_regex='Device offloading time = ([0-9.eE+-]+)'

