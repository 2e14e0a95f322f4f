// Even threads load from a, odd threads from b; each path synchronises before the pairs swap.
extern "C" __global__ void interleave_swap(const int *a, const int *b, int *out)
{
    __shared__ int s[128];
    unsigned tid = threadIdx.x, i = blockIdx.x * blockDim.x + tid;
    if (tid % 2 == 0) {
        s[tid] = a[i];
    } else {
        s[tid] = b[i];
    }
    __syncthreads();
    out[i] = s[tid ^ 1];
}
