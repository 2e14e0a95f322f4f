// Counts the positive inputs of the whole grid: per CTA in shared memory, then into one global counter.
extern "C" __global__ void count_positive(const int *in, int *count)
{
    __shared__ int block_count;
    if (threadIdx.x == 0)
        block_count = 0;
    __syncthreads();
    if (in[blockIdx.x * blockDim.x + threadIdx.x] > 0)
        atomicAdd(&block_count, 1);
    __syncthreads();
    if (threadIdx.x == 0) {
        atomicAdd(count, block_count);
    }
}
