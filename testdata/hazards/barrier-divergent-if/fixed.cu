// Each CTA reverses its first 16 inputs through shared memory.
extern "C" __global__ void head_reverse(const int *in, int *out)
{
    __shared__ int s[16];
    unsigned tid = threadIdx.x;
    if (tid < 16)
        s[tid] = in[blockIdx.x * blockDim.x + tid];
    __syncthreads(); // [A]
    if (tid < 16) {
        out[blockIdx.x * 16 + tid] = s[15 - tid];
    }
}
