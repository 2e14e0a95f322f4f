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
        v += s[tid + 32]; __syncwarp(); s[tid] = v; __syncwarp(); // [A]
        v += s[tid + 16]; __syncwarp(); s[tid] = v; __syncwarp(); // [B]
        v += s[tid + 8]; __syncwarp(); s[tid] = v; __syncwarp(); // [D]
        v += s[tid + 4]; __syncwarp(); s[tid] = v; __syncwarp(); // [E]
        v += s[tid + 2]; __syncwarp(); s[tid] = v; __syncwarp(); // [F]
        v += s[tid + 1]; __syncwarp(); s[tid] = v; __syncwarp(); // [C]
    }
    if (tid == 0)
        out[blockIdx.x] = s[0];
}
