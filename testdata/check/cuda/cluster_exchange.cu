// Two CTAs of a cluster swap a value through distributed shared memory. Compiled for sm_90a
// with -lineinfo; the check case edits its .target to sm_80, where clusters do not exist.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__device__ __forceinline__ int read_peer(cg::cluster_group cluster, int *mine) {
    int *theirs = cluster.map_shared_rank(mine, cluster.block_rank() ^ 1);
    return *theirs;
}

__global__ void __cluster_dims__(2, 1, 1) exchange(int *out) {
    cg::cluster_group cluster = cg::this_cluster();
    __shared__ int v;
    if (threadIdx.x == 0) v = blockIdx.x + 1;
    cluster.sync();
    out[blockIdx.x] = read_peer(cluster, &v);
    cluster.sync();
}
