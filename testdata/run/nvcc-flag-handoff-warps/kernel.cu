// Warp 1 hands a value to warp 0 through global memory: data, a fence, then a volatile flag
// that warp 0 spins on (the classic pre-cuda::atomic message passing).
__global__ void flag_handoff(volatile int *flag, int *data, int *out) {
    if (threadIdx.x == 32) {
        data[0] = 42;
        __threadfence();
        *flag = 1;
    }
    if (threadIdx.x < 32) {
        while (*flag == 0) {
        }
        __threadfence();
        out[threadIdx.x] = data[0] + threadIdx.x;
    }
}
