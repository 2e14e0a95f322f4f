#include <cooperative_groups.h>
namespace cg = cooperative_groups;
// Each CTA of a 2-CTA cluster fills a shared buffer, then adds its peer's buffer read through DSMEM.
extern "C" __global__ void cluster_pair_sum(const int *in, int *out)
{
    __shared__ int buf[128];
    cg::cluster_group cluster = cg::this_cluster();
    unsigned tid = threadIdx.x, i = blockIdx.x * blockDim.x + tid;
    buf[tid] = in[i] * 2; // [A]
    int *peer = cluster.map_shared_rank(buf, cluster.block_rank() ^ 1);
    out[i] = buf[tid] + peer[blockDim.x - 1 - tid]; // [B]
    cluster.sync();
}
