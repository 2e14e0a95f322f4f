// Does any element of each CTA's slice fall below the threshold?
extern "C" __global__ void any_below(const float *in, int *out, float threshold)
{
    __shared__ int found;
    if (threadIdx.x == 0)
        found = 0; // [A]
    __syncthreads();
    if (in[blockIdx.x * blockDim.x + threadIdx.x] < threshold)
        atomicOr(&found, 1); // [B]
    __syncthreads();
    if (threadIdx.x == 0)
        out[blockIdx.x] = found;
}
