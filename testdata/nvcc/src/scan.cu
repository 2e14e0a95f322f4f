// Prefix sums: Hillis-Steele, Blelloch (work-efficient, padded), warp-shuffle scan.
// nvcc-targets: sm_80 sm_90
#include <cuda_runtime.h>

#define BLOCK 256

// Inclusive per-block scan, double-buffered in shared memory.
extern "C" __global__ void scan_hillis_steele(const int* in, int* out, int n)
{
    __shared__ int buf[2][BLOCK];
    int tid = threadIdx.x;
    int gid = blockIdx.x * blockDim.x + tid;
    int pout = 0, pin = 1;
    buf[pout][tid] = gid < n ? in[gid] : 0;
    __syncthreads();
    for (int off = 1; off < blockDim.x; off <<= 1) {
        pout = 1 - pout;
        pin = 1 - pout;
        if (tid >= off)
            buf[pout][tid] = buf[pin][tid] + buf[pin][tid - off];
        else
            buf[pout][tid] = buf[pin][tid];
        __syncthreads();
    }
    if (gid < n)
        out[gid] = buf[pout][tid];
}

#define LOG_NUM_BANKS 5
#define CONFLICT_FREE_OFFSET(n) ((n) >> LOG_NUM_BANKS)

// Exclusive Blelloch scan of 2*blockDim elements per block; block totals go to sums.
extern "C" __global__ void scan_blelloch(const int* in, int* out, int* sums, int n)
{
    __shared__ int temp[2 * BLOCK + (2 * BLOCK >> LOG_NUM_BANKS)];
    int tid = threadIdx.x;
    int m = 2 * blockDim.x;
    int base = blockIdx.x * m;
    int ai = tid, bi = tid + blockDim.x;
    int bankA = CONFLICT_FREE_OFFSET(ai), bankB = CONFLICT_FREE_OFFSET(bi);
    temp[ai + bankA] = base + ai < n ? in[base + ai] : 0;
    temp[bi + bankB] = base + bi < n ? in[base + bi] : 0;
    int offset = 1;
    for (int d = m >> 1; d > 0; d >>= 1) {
        __syncthreads();
        if (tid < d) {
            int a = offset * (2 * tid + 1) - 1;
            int b = offset * (2 * tid + 2) - 1;
            a += CONFLICT_FREE_OFFSET(a);
            b += CONFLICT_FREE_OFFSET(b);
            temp[b] += temp[a];
        }
        offset *= 2;
    }
    if (tid == 0) {
        int last = m - 1 + CONFLICT_FREE_OFFSET(m - 1);
        sums[blockIdx.x] = temp[last];
        temp[last] = 0;
    }
    for (int d = 1; d < m; d *= 2) {
        offset >>= 1;
        __syncthreads();
        if (tid < d) {
            int a = offset * (2 * tid + 1) - 1;
            int b = offset * (2 * tid + 2) - 1;
            a += CONFLICT_FREE_OFFSET(a);
            b += CONFLICT_FREE_OFFSET(b);
            int t = temp[a];
            temp[a] = temp[b];
            temp[b] += t;
        }
    }
    __syncthreads();
    if (base + ai < n) out[base + ai] = temp[ai + bankA];
    if (base + bi < n) out[base + bi] = temp[bi + bankB];
}

// Inclusive scan of floats within each warp and then across warps of the block.
extern "C" __global__ void scan_warp_f32(const float* in, float* out, int n)
{
    __shared__ float warp_tot[BLOCK / 32];
    int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    int gid = blockIdx.x * blockDim.x + tid;
    float v = gid < n ? in[gid] : 0.0f;
#pragma unroll
    for (int off = 1; off < 32; off <<= 1) {
        float u = __shfl_up_sync(0xffffffffu, v, off);
        if (lane >= off) v += u;
    }
    if (lane == 31) warp_tot[warp] = v;
    __syncthreads();
    if (warp == 0) {
        float t = lane < (blockDim.x >> 5) ? warp_tot[lane] : 0.0f;
        for (int off = 1; off < 32; off <<= 1) {
            float u = __shfl_up_sync(0xffffffffu, t, off);
            if (lane >= off) t += u;
        }
        if (lane < (blockDim.x >> 5)) warp_tot[lane] = t;
    }
    __syncthreads();
    if (warp > 0) v += warp_tot[warp - 1];
    if (gid < n) out[gid] = v;
}
