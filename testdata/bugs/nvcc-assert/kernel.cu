// assert() in device code: thread 1 of CTA 1 finds a negative input; the launch fails like a trap
// and the CUDA runtime prints the assertion with file, line, function, block and thread.
#include <cassert>
#include <cstdio>

extern "C" __global__ void check_positive(const int* in, int* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        assert(in[i] >= 0);
        out[i] = in[i] * 2;
    }
}
