// Per-warp sums of the first n inputs with a shuffle reduction.
extern "C" __global__ void warp_sums(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    {
        int v = i < n ? in[i] : 0;
        for (int off = 16; off > 0; off >>= 1)
            v += __shfl_down_sync(0xffffffffu, v, off); // [A]
        if (threadIdx.x % 32 == 0 && i < n)
            out[i / 32] = v;
    }
}
