// Two-level sum: every CTA writes its partial sum; the last CTA to finish adds the partials up.
// The ticket is taken with atomicInc_block (scope .cta): the fix is atomicInc (scope .gpu).
extern "C" __global__ void sum_last_block(const int *in, int *partial, unsigned *done, int *total)
{
    __shared__ int s[128];
    __shared__ bool last;
    unsigned tid = threadIdx.x;
    s[tid] = in[blockIdx.x * blockDim.x + tid];
    __syncthreads();
    for (unsigned step = blockDim.x / 2; step > 0; step >>= 1) {
        if (tid < step)
            s[tid] += s[tid + step];
        __syncthreads();
    }
    if (tid == 0) {
        partial[blockIdx.x] = s[0]; // [A]
        __threadfence();
        unsigned ticket = atomicInc(done, gridDim.x); // [C]
        __threadfence();
        last = ticket == gridDim.x - 1;
    }
    __syncthreads();
    if (last && tid == 0) {
        int sum = 0;
        for (unsigned b = 0; b < gridDim.x; ++b)
            sum += partial[b]; // [B]
        *total = sum;
    }
}
