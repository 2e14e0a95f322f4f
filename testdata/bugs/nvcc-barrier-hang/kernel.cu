// cuda::barrier whose expected count includes a thread that never arrives: every other thread
// waits in arrive_and_wait for ever (nvcc compiles the wait into a try_wait polling loop with a
// back-off). On a GPU the launch hangs; the report must be a deadlock, found at once.
#include <cuda/barrier>

extern "C" __global__ void barrier_hang(int* out)
{
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    if (threadIdx.x == 0)
        init(&bar, blockDim.x);
    __syncthreads();
    if (threadIdx.x != 5)
        bar.arrive_and_wait();
    out[threadIdx.x] = 1;
}
