# chacha20: ChaCha20 cipher, kernel repeated with per-iteration copies
repo=zjin-lcf/HeCBench
commit=f27000a5188f8ac79bd43fc95a1b3f890c18823d
path=src/chacha20-cuda
sources="main.cu"
args="15000"   # ~24 us a launch
compare='exact'
filter=''
time_regex='Average execution time of kernels: ([0-9.eE+-]+)'

