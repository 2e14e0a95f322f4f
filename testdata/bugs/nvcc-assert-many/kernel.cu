// Every thread prints before its assert(); three threads of CTA 1 fail it, two of them in the same
// warp. The launch fails like a trap; what was printed before is still printed, then the
// assertion messages.
#include <cassert>
#include <cstdio>

extern "C" __global__ void assert_many(const int* in, int* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    printf("thread %d of CTA %d checks %d\n", threadIdx.x, blockIdx.x, in[i]);
    assert(in[i] >= 0 && "inputs are counts");
    out[i] = in[i] + 1;
}
