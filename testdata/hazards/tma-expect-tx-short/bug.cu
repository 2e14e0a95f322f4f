#include <cuda/ptx>
namespace ptx = cuda::ptx;
#define N 128
// Each CTA loads an a-tile and a b-tile with two bulk copies on one mbarrier and multiplies them elementwise.
extern "C" __global__ void bulk_mul(const float *a, const float *b, float *out)
{
    __shared__ alignas(16) float sa[N], sb[N];
    __shared__ alignas(8) uint64_t full;
    unsigned tid = threadIdx.x, i = blockIdx.x * N + tid;
    if (tid == 0) {
        ptx::mbarrier_init(&full, 1);
        ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
    }
    __syncthreads();
    if (tid == 0) {
        ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &full, sizeof(sa)); // [A]
        ptx::cp_async_bulk(ptx::space_shared, ptx::space_global, sa, a + blockIdx.x * N, sizeof(sa), &full);
        ptx::cp_async_bulk(ptx::space_shared, ptx::space_global, sb, b + blockIdx.x * N, sizeof(sb), &full); // [B]
    }
    while (!ptx::mbarrier_try_wait_parity(&full, 0)) { // [W]
    }
    out[i] = sa[tid] * sb[tid]; // [C]
}
