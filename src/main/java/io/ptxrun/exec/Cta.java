package io.ptxrun.exec;

/**
 * One CTA in flight: its place in the grid and the cluster, its shared memory, its warps, and the
 * synchronization state that belongs to it. The CTAs of a cluster run interleaved in one worker,
 * so the engine switches between these objects; what a peer may reach (shared memory, mbarrier
 * objects, the landing of copies multicast to it) is reached through the peer's own object.
 */
final class Cta {
    /**
     * Bytes of shared::cluster address space per CTA. Own shared variables keep their plain
     * offsets (below one span); the CTA of rank r is also reachable at {@code (r + 1) * SPAN +
     * offset}, which is what mapa returns, so an address says which CTA it belongs to.
     */
    static final long DSMEM_SPAN = 1L << 24;

    /** %cluster_ctarank. */
    final int rank;
    final int[] ctaid = new int[3];
    byte[] shared;
    Warp[] warps;
    int liveThreads;
    /** Per thread of the CTA: the cluster barrier phase it last arrived on, -1 for none. */
    int[] clusterArrival;

    final Barriers barriers;
    final MBarriers mbarriers;
    final AsyncCopies copies;
    final Warpgroups warpgroups;
    /** Peer CTAs' accesses to this CTA's shared memory, checked when it exits (with the hazard detector). */
    final PeerAccesses peerAccesses = new PeerAccesses();

    Cta(Engine engine, int rank, Hazards hazards, SyncOptions sync) {
        this.rank = rank;
        this.barriers = new Barriers(engine, hazards);
        this.mbarriers = new MBarriers(engine, this, hazards);
        this.copies = new AsyncCopies(engine, this, hazards, sync);
        this.warpgroups = new Warpgroups(engine, hazards);
    }

    /** The shared::cluster address of shared offset {@code offset} of this CTA, as mapa returns it. */
    long clusterAddress(long offset) {
        return (rank + 1L) * DSMEM_SPAN + offset;
    }

    /** Cluster rank of the CTA a shared::cluster address (or shared::cta offset, for {@code own}) belongs to. */
    static int rankOf(long sharedAddress, int own) {
        return sharedAddress < DSMEM_SPAN ? own : (int) (sharedAddress / DSMEM_SPAN) - 1;
    }

    /** The offset within its CTA's shared memory of a shared::cluster address. */
    static long offsetOf(long sharedAddress) {
        return sharedAddress < DSMEM_SPAN ? sharedAddress : sharedAddress % DSMEM_SPAN;
    }

    boolean exited() {
        return liveThreads == 0;
    }

    /** Wakes the lanes suspended in try_wait on the mbarrier at shared offset {@code a}. */
    void wakeMBarrierWaiters(int a) {
        for (Warp w : warps) {
            for (int m = w.blocked; m != 0; m &= m - 1) {
                int l = Integer.numberOfTrailingZeros(m);
                if (w.waitKind[l] == Warp.WAIT_MBARRIER && w.waitAddr[l] == a) {
                    w.blocked &= ~(1 << l);
                }
            }
        }
    }
}
