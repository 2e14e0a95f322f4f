// Three-point sum: each thread copies one element with cp.async, waits, and reads its neighbours' copies.
__device__ void copy4_async(int *dst, const int *src)
{
    unsigned d = static_cast<unsigned>(__cvta_generic_to_shared(dst));
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" :: "r"(d), "l"(src) : "memory"); // [A]
}
extern "C" __global__ void sum3_async(const int *in, int *out)
{
    __shared__ int tile[128];
    unsigned tid = threadIdx.x, base = blockIdx.x * blockDim.x;
    copy4_async(&tile[tid], &in[base + tid]);
    asm volatile("cp.async.commit_group;" ::: "memory");
    asm volatile("cp.async.wait_group 0;" ::: "memory");
    __syncthreads();
    int left = tid > 0 ? tile[tid - 1] : 0; // [B]
    int right = tid + 1 < blockDim.x ? tile[tid + 1] : 0; // [C]
    out[base + tid] = left + tile[tid] + right;
}
