// Block sum whose last 64 values are added by warp 0 alone (a warp-synchronous tail).
extern "C" __global__ void block_sum_warp_tail(const int *in, int *out)
{
    __shared__ int s[128];
    unsigned tid = threadIdx.x;
    s[tid] = in[blockIdx.x * blockDim.x + tid];
    __syncthreads();
    if (tid < 64)
        s[tid] += s[tid + 64];
    __syncthreads();
    if (tid < 32) {
        int v = s[tid];
        v += s[tid + 32]; s[tid] = v; // [A]
        v += s[tid + 16]; s[tid] = v; // [B]
        v += s[tid + 8]; s[tid] = v; // [D]
        v += s[tid + 4]; s[tid] = v; // [E]
        v += s[tid + 2]; s[tid] = v; // [F]
        v += s[tid + 1]; s[tid] = v; // [C]
    }
    if (tid == 0)
        out[blockIdx.x] = s[0];
}
