// Shared-memory histogram: every thread adds its bytes into shared bins with atomicAdd, then the
// first 64 threads add the bins into the global histogram; a barrier must separate the two.
extern "C" __global__ void histogram_smem(const unsigned char *in, unsigned *out, int n)
{
    __shared__ unsigned bins[64];
    unsigned tid = threadIdx.x;
    if (tid < 64)
        bins[tid] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + tid; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&bins[in[i] & 63], 1u); // [A]
    __syncthreads();
    if (tid < 64)
        atomicAdd(&out[tid], bins[tid]); // [B]
}
