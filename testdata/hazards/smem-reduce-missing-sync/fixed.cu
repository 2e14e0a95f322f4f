// Block sum: each CTA adds its 128 inputs with a tree in shared memory.
extern "C" __global__ void block_sum(const int *in, int *out)
{
    __shared__ int s[128];
    unsigned tid = threadIdx.x;
    s[tid] = in[blockIdx.x * blockDim.x + tid]; // [A]
    __syncthreads();
    for (unsigned step = blockDim.x / 2; step > 0; step >>= 1) {
        if (tid < step)
            s[tid] += s[tid + step]; // [B]
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = s[0];
}
