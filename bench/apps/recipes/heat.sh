# heat: 2D heat equation, one stencil kernel + pointer swap per time step
repo=zjin-lcf/HeCBench
commit=f27000a5188f8ac79bd43fc95a1b3f890c18823d
path=src/heat-cuda
sources="heat.cu"
args="4096 1000"
compare='exact'
filter='[Tt]ime|GB/s'
time_regex='Solve time \(s\): ([0-9.eE+-]+)'

