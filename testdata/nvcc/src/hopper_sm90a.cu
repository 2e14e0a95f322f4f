// Architecture-specific Hopper features (sm_90a): a warpgroup MMA (wgmma.mma_async m64n8k16,
// f16 inputs from shared-memory descriptors, f32 accumulators), setmaxnreg, and tensor-map
// editing in shared memory through cuda::ptx (tensormap.replace, fence.proxy.tensormap).
// nvcc-targets: sm_90a
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda.h>
#include <cuda/ptx>
#include <cuda/std/cstdint>

namespace ptx = cuda::ptx;

__device__ __forceinline__ unsigned long long make_desc(const void* smem, unsigned lbo, unsigned sbo)
{
    unsigned addr = (unsigned)__cvta_generic_to_shared(smem);
    unsigned long long d = 0;
    d |= (unsigned long long)((addr & 0x3FFFF) >> 4);
    d |= (unsigned long long)((lbo & 0x3FFFF) >> 4) << 16;
    d |= (unsigned long long)((sbo & 0x3FFFF) >> 4) << 32;
    return d;                                   // no swizzle, base offset 0
}

// One warpgroup (128 threads): D[64 x 8] = A[64 x 16] * B[16 x 8], core-matrix (8x8) interleaved
// layouts in shared memory, no swizzling. d[tid * 4 + j] receives the thread's accumulator j.
extern "C" __global__ void __launch_bounds__(128) wgmma_m64n8k16(const __half* a, const __half* b, float* d)
{
    __shared__ alignas(128) __half As[64 * 16];
    __shared__ alignas(128) __half Bs[16 * 8];
    int tid = threadIdx.x;
    for (int i = tid; i < 64 * 16; i += 128) As[i] = a[i];
    for (int i = tid; i < 16 * 8; i += 128) Bs[i] = b[i];
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();

    float acc[4] = {0.f, 0.f, 0.f, 0.f};
    unsigned long long da = make_desc(As, 128, 256);
    unsigned long long db = make_desc(Bs, 128, 256);
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    asm volatile(
        "{\n"
        ".reg .pred p;\n"
        "setp.ne.b32 p, %6, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 "
        "{%0, %1, %2, %3}, %4, %5, p, 1, 1, 0, 0;\n"
        "}\n"
        : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3])
        : "l"(da), "l"(db), "r"(0));
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    for (int j = 0; j < 4; ++j) d[tid * 4 + j] = acc[j];
}

// Producer/consumer register rebalancing: warpgroup 0 gives registers away, warpgroup 1 takes more.
extern "C" __global__ void __launch_bounds__(256) setmaxnreg_split(const int* in, int* out)
{
    int wg = threadIdx.x / 128;
    if (wg == 0) {
        asm volatile("setmaxnreg.dec.sync.aligned.u32 40;");
        out[threadIdx.x] = in[threadIdx.x] + 1;
    } else {
        asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
        int acc = 0;
        for (int k = 0; k < 32; ++k) acc += in[(threadIdx.x + k) & 255] * k;
        out[threadIdx.x] = acc;
    }
}

// Copies a tensor map into shared memory, rewrites its global address and first dimension there,
// publishes it back to global memory and fences the tensormap proxy.
extern "C" __global__ void tensormap_edit(const __grid_constant__ CUtensorMap tm, CUtensorMap* dst,
                                          const float* new_base, int new_dim0)
{
    __shared__ alignas(128) CUtensorMap smem_tm;
    if (threadIdx.x == 0) {
        smem_tm = tm;
        ptx::tensormap_replace_global_address(ptx::space_shared, &smem_tm, (cuda::std::uint64_t)new_base);
        ptx::tensormap_replace_global_dim(ptx::space_shared, &smem_tm, ptx::n32_t<0>{}, (cuda::std::int32_t)new_dim0);
        ptx::tensormap_cp_fenceproxy(ptx::sem_release, ptx::scope_cta, dst, &smem_tm,
                                     ptx::n32_t<128>{});
        ptx::fence_proxy_tensormap_generic(ptx::sem_acquire, ptx::scope_cta, dst, ptx::n32_t<128>{});
    }
}
