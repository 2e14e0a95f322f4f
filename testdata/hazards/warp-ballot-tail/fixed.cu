// Warp-aggregated compaction: each warp packs its positive inputs to the front of its 32-slot segment.
extern "C" __global__ void compact_positive(const int *in, int *out, int *count, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned lane = threadIdx.x % 32;
    unsigned live = __ballot_sync(0xffffffffu, i < n);
    if (i < n) {
        bool keep = in[i] > 0;
        unsigned ballot = __ballot_sync(live, keep); // [A]
        if (keep)
            out[i - lane + __popc(ballot & ((1u << lane) - 1))] = in[i];
        if (lane == 0)
            count[i / 32] = __popc(ballot);
    }
}
