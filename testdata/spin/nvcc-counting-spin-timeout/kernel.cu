// Threads wait for a flag that nothing sets, counting their polls: an H100 hangs. The count
// changes every iteration, so the loop never returns to a state it was in: a timeout.
__global__ void counting_spin(const int *flag, unsigned *polls) {
    unsigned n = 0;
    while (*(volatile const int *)flag == 0) {
        n++;
    }
    polls[threadIdx.x] = n;
}
