// Inclusive prefix sum of each CTA's 128 inputs (Hillis-Steele, in place).
extern "C" __global__ void block_scan(const int *in, int *out)
{
    __shared__ int s[128];
    unsigned tid = threadIdx.x, i = blockIdx.x * blockDim.x + tid;
    s[tid] = in[i];
    __syncthreads();
    for (unsigned off = 1; off < blockDim.x; off <<= 1) {
        int v = 0;
        if (tid >= off)
            v = s[tid - off]; // [A]
        __syncthreads();
        if (tid >= off)
            s[tid] += v; // [B]
        __syncthreads();
    }
    out[i] = s[tid];
}
