// cub::BlockReduce with the default and the warp-reductions algorithms, sum and max, full and partial tiles.
// nvcc-targets: sm_80 sm_90
#include <cuda_runtime.h>
#include <cub/block/block_reduce.cuh>
#include <cuda/functional>

#define BLOCK 128

// out[3 * b + 0] = block sum of in (4 items per thread), out[3 * b + 1] = block max,
// out[3 * b + 2] = sum over the first valid[b] threads' first items.
extern "C" __global__ void cub_block_reduce_i32(const int* in, int* out, const int* valid)
{
    using BR = cub::BlockReduce<int, BLOCK>;
    __shared__ typename BR::TempStorage tmp;
    int items[4];
    const int* src = in + blockIdx.x * BLOCK * 4;
    for (int k = 0; k < 4; ++k) items[k] = src[threadIdx.x * 4 + k];
    int sum = BR(tmp).Sum(items);
    __syncthreads();
    int mx = BR(tmp).Reduce(items, cuda::maximum<>{});
    __syncthreads();
    int partial = BR(tmp).Sum(items[0], valid[blockIdx.x]);
    if (threadIdx.x == 0) {
        out[3 * blockIdx.x + 0] = sum;
        out[3 * blockIdx.x + 1] = mx;
        out[3 * blockIdx.x + 2] = partial;
    }
}

// Floats with BLOCK_REDUCE_WARP_REDUCTIONS and doubles with BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY.
extern "C" __global__ void cub_block_reduce_fp(const float* in, float* outf, double* outd)
{
    using BRF = cub::BlockReduce<float, BLOCK, cub::BLOCK_REDUCE_WARP_REDUCTIONS>;
    using BRD = cub::BlockReduce<double, BLOCK, cub::BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY>;
    __shared__ typename BRF::TempStorage tf;
    __shared__ typename BRD::TempStorage td;
    float x = in[blockIdx.x * BLOCK + threadIdx.x];
    float s = BRF(tf).Sum(x);
    double d = BRD(td).Reduce((double)x * 3.0, cuda::minimum<>{});
    if (threadIdx.x == 0) {
        outf[blockIdx.x] = s;
        outd[blockIdx.x] = d;
    }
}
