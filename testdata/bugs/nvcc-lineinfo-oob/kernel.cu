// An out-of-bounds store inside an inlined device function: the report names the CUDA line of the
// store and the line it was inlined at (nvcc -lineinfo), beside the PTX line.
__device__ __forceinline__ void scatter(int* p, int i, int v)
{
    p[i * 1000] = v;
}

extern "C" __global__ void lineinfo_oob(int* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        scatter(out, i, i + 1);
}
