# addBiasResidualLayerNorm: bias+residual+layernorm kernel repeated over shapes (OpenMP host reference)
repo=zjin-lcf/HeCBench
commit=f27000a5188f8ac79bd43fc95a1b3f890c18823d
path=src/addBiasResidualLayerNorm-cuda
sources="main.cu"
args="200"   # prepare() trims the CPU reference (it timed out at 20 s)
compare='exact'
filter=''
time_regex='Average execution time of AddBiasResidualLayerNorm \([^)]*\): ([0-9.eE+-]+)'
flags="-fopenmp=libgomp"
libs="-fopenmp=libgomp"
# Its warm-up loop runs the (accumulating) host reference next to each launch, 100 times, over
# n = 256..8192: minutes of host work. 5 warm-ups (device and host alike, so the check still
# holds) and n up to 1024 (all three kernel templates still run) leave the timed loop the main part.
prepare() {
  sed -i 's/for (int i = 0; i < 100; i++) {/for (int i = 0; i < 5; i++) {/; s/n <= 8192; n = n \* 2/n <= 1024; n = n * 2/' main.cu &&
    grep -q 'i < 5; i++' main.cu && grep -q 'n <= 1024' main.cu
}
