# blockScan: CUB BlockScan kernel repeated (needs cccl include)
repo=zjin-lcf/HeCBench
commit=f27000a5188f8ac79bd43fc95a1b3f890c18823d
path=src/blockScan-cuda
sources="main.cu"
args="32768 100"   # 18 configs x 200 launches; 2227104 blocks timed out at 20 s
compare='exact'
filter='million items'
time_regex='Average kernel time: ([0-9.eE+-]+)'

