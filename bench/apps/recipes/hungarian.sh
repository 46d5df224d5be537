# hungarian: Hungarian assignment, a host-driven convergence loop of many small kernels per test
repo=zjin-lcf/HeCBench
commit=f27000a5188f8ac79bd43fc95a1b3f890c18823d
path=src/hungarian-cuda
sources="main.cu"
args="unused.txt"
compare='exact'
# ctime() line and the all-tests time it prints on stderr
filter='^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) |Total kernel time for all'
time_regex='Total kernel execution time of the Hungarian algorithm ([0-9.eE+-]+)'
# It reopens stdout onto its argument; keep stdout, so the output can be compared.
# user_n=1000 (n=1024) did not finish test 0 in 20 s (every step is a launch + sync + managed
# flag read); user_n=100 gives n=128 (all its size checks hold) and 3 tests instead of 10.
prepare() {
  sed -i 's/freopen(argv\[1\], "w", stdout)/stdout/; s/const int user_n = 1000;/const int user_n = 100;/; s/const int n_tests = 10;/const int n_tests = 3;/' main.cu &&
    grep -q 'FILE \*file = stdout;' main.cu && grep -q 'user_n = 100;' main.cu && grep -q 'n_tests = 3;' main.cu
}
