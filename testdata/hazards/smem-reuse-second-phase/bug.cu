// Phase 1 reverses each CTA's slice through shared memory; phase 2 reuses the buffer for a sum of squares.
extern "C" __global__ void reverse_and_sumsq(const int *in, int *rev, int *sumsq)
{
    __shared__ int buf[128];
    unsigned tid = threadIdx.x, i = blockIdx.x * blockDim.x + tid;
    int x = in[i];
    buf[tid] = x;
    __syncthreads();
    rev[i] = buf[blockDim.x - 1 - tid]; // [A]
    buf[tid] = x * x; // [B]
    __syncthreads();
    for (unsigned step = blockDim.x / 2; step > 0; step >>= 1) {
        if (tid < step)
            buf[tid] += buf[tid + step];
        __syncthreads();
    }
    if (tid == 0)
        sumsq[blockIdx.x] = buf[0];
}
