// CTA 0 publishes 128 results and raises a flag; CTA 1 spins on the flag and consumes them.
extern "C" __global__ void publish_consume(const int *in, int *data, volatile int *flag, int *out)
{
    unsigned tid = threadIdx.x;
    if (blockIdx.x == 0) {
        data[tid] = in[tid] * 3; // [A]
        __syncthreads();
        if (tid == 0) {
            __threadfence();
            *flag = 1;
        }
    } else {
        if (tid == 0) {
            while (*flag == 0) {
            }
            __threadfence();
        }
        __syncthreads();
        out[tid] = data[blockDim.x - 1 - tid]; // [B]
    }
}
