// CTA 0 waits for a flag that CTA 1 sets: correct only while both CTAs run at once (on an H100
// two CTAs are co-resident; CUDA promises it only for a cooperative launch).
__global__ void flag_later_cta(volatile int *flag, int *data, int *out) {
    if (blockIdx.x == 1) {
        if (threadIdx.x == 0) {
            data[0] = 7;
            __threadfence();
            *flag = 1;
        }
    } else {
        while (*flag == 0) {
        }
        __threadfence();
        out[threadIdx.x] = data[0] * 10 + threadIdx.x;
    }
}
