# debayer: debayer (malvar) image kernel repeated
repo=zjin-lcf/HeCBench
commit=f27000a5188f8ac79bd43fc95a1b3f890c18823d
path=src/debayer-cuda
sources="main.cu"
args="4096 4096 100"
compare='exact'
filter=''
time_regex='Average kernel execution time ([0-9.eE+-]+)'
extra_paths="src/debayer-sycl"
flags="-I../debayer-sycl"
