#define B 128
// Three-point stencil over a shared tile with a one-element halo on each side.
extern "C" __global__ void stencil3(const float *in, float *out, int n)
{
    __shared__ float tile[B + 2];
    int i = blockIdx.x * B + threadIdx.x;
    unsigned t = threadIdx.x + 1;
    tile[t] = in[i];
    if (threadIdx.x == 0)
        tile[0] = i > 0 ? in[i - 1] : 0.0f;
    if (threadIdx.x == B - 1)
        tile[B + 1] = i + 1 < n ? in[i + 1] : 0.0f;
    __syncthreads();
    out[i] = 0.25f * tile[t - 1] + 0.5f * tile[t] + 0.25f * tile[t + 1]; // [A]
}
