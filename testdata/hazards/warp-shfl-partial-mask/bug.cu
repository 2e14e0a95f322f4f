// Per-warp sums of the first n inputs with a shuffle reduction.
extern "C" __global__ void warp_sums(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int v = in[i];
        for (int off = 16; off > 0; off >>= 1)
            v += __shfl_down_sync(0xffffffffu, v, off); // [A]
        if (threadIdx.x % 32 == 0)
            out[i / 32] = v;
    }
}
