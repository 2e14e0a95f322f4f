// malloc and free in device code: each thread allocates a small array on the device heap, fills
// and sums it, and frees it; out[i] is the sum, 16-byte alignment of the block is checked too.
#include <cstdlib>

extern "C" __global__ void device_malloc(int* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int count = 1 + i % 7;
    int* p = (int*)malloc(count * sizeof(int));
    if (p == nullptr) {
        out[i] = -1;
        return;
    }
    for (int k = 0; k < count; ++k)
        p[k] = i * 10 + k;
    int s = 0;
    for (int k = 0; k < count; ++k)
        s += p[k];
    out[i] = s + (((unsigned long long)p & 15) != 0 ? 1000000 : 0);
    free(p);
    if (i < n) {
        void* none = malloc(0);
        free(none);
        free(nullptr);
    }
}
