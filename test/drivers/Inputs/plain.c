/* C, compiled as C (nvcc hands .c files to the host C compiler). */
int c_part(void) { int new = 2; return new; }
