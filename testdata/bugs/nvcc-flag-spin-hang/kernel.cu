// Every thread waits for a flag that nothing in the grid sets: an H100 hangs.
__device__ __forceinline__ void wait_until_set(const int *flag) {
    while (*(volatile const int *)flag == 0) {
    }
}

__global__ void flag_spin_hang(const int *flag, int *out) {
    wait_until_set(flag);
    out[threadIdx.x] = 1;
}
