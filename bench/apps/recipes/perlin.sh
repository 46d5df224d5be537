# perlin: Perlin noise over several streams
repo=zjin-lcf/HeCBench
commit=f27000a5188f8ac79bd43fc95a1b3f890c18823d
path=src/perlin-cuda
sources="main.cu noise.cu"
args=""
compare='exact'
filter=''
time_regex='Total kernel execution time ([0-9.eE+-]+)'

