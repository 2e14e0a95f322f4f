// Per-thread histogram of 8 inputs into 16 bins; each thread returns its most frequent bin.
extern "C" __global__ void thread_mode(const int *in, int *out)
{
    int hist[16];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (int b = 0; b < 16; ++b)
        hist[b] = 0;
    for (int k = 0; k < 8; ++k)
        hist[in[i * 8 + k] & 15] += 1; // [A]
    int best = 0;
    for (int b = 1; b < 16; ++b)
        if (hist[b] > hist[best]) // [B]
            best = b;
    out[i] = best;
}
