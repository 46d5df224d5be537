# bgmv: LoRA bgmv shrink, one kernel repeated per block size
repo=zjin-lcf/HeCBench
commit=f27000a5188f8ac79bd43fc95a1b3f890c18823d
path=src/bgmv-cuda
sources="main.cu"
args="--op bgmv_shrink --tokens 512 --hidden 4096 --rank 16 --loras 4 --repeat 200"
compare='exact'
filter=''
time_regex='avg latency: ([0-9.eE+-]+)'

