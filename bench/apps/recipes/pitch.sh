# pitch: pitched vs linear 2D/3D memory kernels, repeated
repo=zjin-lcf/HeCBench
commit=f27000a5188f8ac79bd43fc95a1b3f890c18823d
path=src/pitch-cuda
sources="main.cu"
args="500"   # 33 shapes x 2 kernels x repeat, ~0.6 ms a repeat
compare='exact'
filter=''
time_regex='Average execution time \(pitched vs simple\): ([0-9.eE+-]+)'

