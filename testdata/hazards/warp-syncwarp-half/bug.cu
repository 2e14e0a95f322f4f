// Lanes 0..15 of each warp transpose a 4 x 4 tile through shared memory.
extern "C" __global__ void quad_transpose(const int *in, int *out)
{
    __shared__ int t[4][16];
    unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    unsigned g = blockIdx.x * 4 + warp;
    if (lane < 16) {
        t[warp][lane] = in[g * 16 + lane];
        __syncwarp(); // [A]
        out[g * 16 + lane] = t[warp][(lane % 4) * 4 + lane / 4];
    }
}
