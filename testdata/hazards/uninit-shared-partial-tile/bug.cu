#include <climits>
// Maximum of the first n inputs per CTA with a tree in shared memory.
extern "C" __global__ void block_max(const int *in, int *out, int n)
{
    __shared__ int s[128];
    unsigned tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    if (i < n)
        s[tid] = in[i];
    __syncthreads();
    for (unsigned step = blockDim.x / 2; step > 0; step >>= 1) {
        if (tid < step)
            s[tid] = max(s[tid], s[tid + step]); // [A]
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = s[0];
}
