// Thread block clusters: __cluster_dims__, cg::this_cluster, map_shared_rank (distributed shared
// memory), cluster.sync, cluster special registers; also a kernel sized at launch time.
// nvcc-targets: sm_90
#include <cuda_runtime.h>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define NBINS 128

// Distributed histogram: CTA r of a cluster of 2 owns bins [r*64, r*64+64).
// out[cluster * NBINS + bin] = count of in values (of this cluster's slice) with value % NBINS == bin
extern "C" __global__ void __cluster_dims__(2, 1, 1) cluster_histogram(const int* in, int* out, int per_cta)
{
    __shared__ int bins[NBINS / 2];
    auto cluster = cg::this_cluster();
    unsigned rank = cluster.block_rank();
    for (int i = threadIdx.x; i < NBINS / 2; i += blockDim.x) bins[i] = 0;
    cluster.sync();
    const int* src = in + blockIdx.x * per_cta;
    for (int i = threadIdx.x; i < per_cta; i += blockDim.x) {
        int v = src[i] % NBINS;
        int owner = v / (NBINS / 2);
        int* dst = cluster.map_shared_rank(bins, owner);
        atomicAdd(dst + v % (NBINS / 2), 1);
    }
    cluster.sync();
    int cid = blockIdx.x / 2;
    for (int i = threadIdx.x; i < NBINS / 2; i += blockDim.x)
        out[cid * NBINS + rank * (NBINS / 2) + i] = bins[i];
}

// Ring exchange inside a cluster whose size is chosen at launch (cluster dims in the launch).
// Each CTA writes its data to shared memory; after cluster.sync each thread reads the next CTA's
// element. info[block] = rank | num_blocks << 8 | dim_blocks.x << 16, out[gid] = neighbour value.
extern "C" __global__ void cluster_ring(const int* in, int* out, int* info)
{
    __shared__ int s[256];
    auto cluster = cg::this_cluster();
    unsigned rank = cluster.block_rank();
    unsigned nb = cluster.num_blocks();
    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = in[gid] * 10 + (int)rank;
    cluster.sync();
    int* peer = cluster.map_shared_rank(s, (rank + 1) % nb);
    int v = peer[(threadIdx.x + 1) % blockDim.x];
    cluster.sync();   // keep peers' shared memory alive until every read is done
    out[gid] = v;
    if (threadIdx.x == 0)
        info[blockIdx.x] = (int)(rank | nb << 8 | cluster.dim_blocks().x << 16);
}
