package io.ptxrun.exec;

import io.ptxrun.exec.copy.BulkReduction;
import io.ptxrun.exec.copy.ClusterGeometry;
import io.ptxrun.exec.copy.Im2colShape;
import io.ptxrun.exec.copy.LoadMode;
import io.ptxrun.exec.copy.ReductionOp;
import io.ptxrun.exec.copy.ReductionType;
import io.ptxrun.exec.copy.TensorCopy;
import io.ptxrun.launch.TensorMap;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Asynchronous copies issued by the threads of one CTA: cp.async (9.7.9.25.3), the asynchronous arrive of
 * cp.async.mbarrier.arrive, and non-tensor cp.async.bulk (9.7.9.25.4). A copy reads its source at
 * issue and its bytes land later, between issue and the point where the program may first rely on
 * them, as {@link SyncOptions.CopyTiming} says: a wait_group / bulk wait_group covering its group,
 * or, for copies tracked by an mbarrier, the moment no thread could progress without them.
 *
 * <p>Pending operations live in a pool of parallel arrays, linked per issuing thread in issue
 * order, so issuing and landing allocate nothing but the buffer of a bulk copy. Reads that race
 * with a copy are the hazard detector's to find ({@link io.ptxrun.exec.order.MemoryOrder}): each
 * copy carries its origin there, and its source reads and landing writes are reported to it.
 */
final class AsyncCopies {
    private static final byte COPY = 0, BULK = 1, ARRIVE = 2, TENSOR_LOAD = 3, TENSOR_STORE = 4;
    private static final int NONE = -1;

    // ------------------------------------------------------------------ decoded forms

    /**
     * cp.async: the global source address (an address op; the op's own address is the shared
     * destination), and whether the third operand is a predicate, ignore-src, rather than src-size.
     */
    record CopyForm(MemoryAccess source, boolean ignoreSource) implements OpForm {}

    /**
     * cp(.reduce).async.bulk: the source address; the mbarrier signalled by complete_tx, or null for
     * a bulk async-group; the reduction's operation and element type, both null for a plain copy;
     * and .multicast::cluster, whose ctaMask is source 1.
     */
    record BulkForm(MemoryAccess source, MemoryAccess barrier, ReductionOp redOp, ReductionType redType,
                    boolean multicast)
            implements OpForm, Reducing {}

    /**
     * st.async / red.async (9.7.9.12, 9.7.13.8): {@code elements} source registers of
     * {@code elementBytes} each make the stored value; the mbarrier signalled by complete_tx; the
     * reduction's operation and element type, both null for st.async. Runs as a bulk copy of the
     * value's bytes (or a bulk reduction) into the peer's shared memory.
     */
    record StoreForm(MemoryAccess barrier, ReductionOp redOp, ReductionType redType, int elements, int elementBytes)
            implements OpForm, Reducing {}

    /** A form whose landing copies bytes, or reduces them into the destination when redOp is not null. */
    sealed interface Reducing permits BulkForm, StoreForm {
        ReductionOp redOp();

        ReductionType redType();
    }

    /**
     * cp(.reduce).async.bulk(.prefetch).tensor: the direction, the load mode and the .dim; its
     * sources are the tensor map, {@code coordinates} coordinates, {@code im2colInfo} im2col
     * operands, then (multicast) the ctaMask. The mbarrier of a load, or null; the reduction's
     * operation (null for a copy); .cta_group::2, under which the mbarrier may be in the peer CTA of
     * the destination's CTA pair.
     */
    record TensorForm(Direction direction, LoadMode loadMode, int dimensions, int coordinates, int im2colInfo,
                      MemoryAccess barrier, ReductionOp redOp, boolean ctaGroup2, boolean multicast) implements OpForm {

        enum Direction { LOAD, STORE, PREFETCH }

        /** The source index of the ctaMask. */
        int ctaMaskSource() {
            return 1 + coordinates + im2colInfo;
        }
    }

    /** What an async-group op does: commit_group, wait_group and wait_all, and their bulk forms. */
    enum GroupStep implements OpForm { COMMIT, WAIT, WAIT_ALL, BULK_COMMIT, BULK_WAIT }

    private final Engine engine;
    /** The issuing CTA; a copy may land in a peer's shared memory (target). */
    private final Cta cta;
    private final Hazards hazards;
    private final SyncOptions.CopyTiming timing;
    private final SplittableRandom random;

    // The pool, one slot per pending operation.
    private byte[] kind = new byte[64];
    private int[] thread = new int[64];
    /** cp.async group or bulk group of the copy; NONE for copies an mbarrier tracks. */
    private int[] group = new int[64];
    private int[] prev = new int[64];
    private int[] next = new int[64];
    private int[] issuedAt = new int[64];
    private long[] dst = new long[64];
    private boolean[] dstGlobal = new boolean[64];
    /** The CTA whose shared memory a copy writes, and whose mbarrier it signals. */
    private Cta[] target = new Cta[64];
    private int[] size = new int[64];
    private long[] low = new long[64];
    private long[] high = new long[64];
    private byte[][] bulkData = new byte[64][];
    /** Tensor loads: which bytes of bulkData the copy writes (swizzled rows leave gaps). */
    private boolean[][] written = new boolean[64][];
    /** Tensor stores and reductions: the element moves, replayed when the copy lands. */
    private TensorCopy[] plan = new TensorCopy[64];
    private int[] mbarrier = new int[64];
    /** Tensor loads: the CTA whose mbarrier the copy signals (the destination, or its peer with .cta_group::2). */
    private Cta[] signalled = new Cta[64];
    /** What the hazard detector knows of each copy's agent and issuer (null when it is off). */
    private io.ptxrun.exec.order.MemoryOrder.CopyOrigin[] origin = new io.ptxrun.exec.order.MemoryOrder.CopyOrigin[64];
    /** Copies an mbarrier tracks: its phase (mod 4) when the copy was issued, the phase it is counted in. */
    private int[] issuePhase = new int[64];
    private int[] livePos = new int[64];
    private int[] live = new int[64];
    private int liveCount;
    private int freeHead = NONE;
    private int used;

    // Per thread of the CTA.
    private int[] head = new int[0];
    private int[] tail = new int[0];
    private int[] committed = new int[0];
    private int[] bulkCommitted = new int[0];


    AsyncCopies(Engine engine, Cta cta, Hazards hazards, SyncOptions options) {
        this.engine = engine;
        this.cta = cta;
        this.hazards = hazards;
        this.timing = options.copyTiming();
        this.random = new SplittableRandom(options.seed());
    }

    void startCta(int threads) {
        if (head.length < threads) {
            head = new int[threads];
            tail = new int[threads];
            committed = new int[threads];
            bulkCommitted = new int[threads];
        }
        Arrays.fill(head, NONE);
        Arrays.fill(tail, NONE);
        Arrays.fill(committed, 0);
        Arrays.fill(bulkCommitted, 0);
        liveCount = 0;
        freeHead = NONE;
        used = 0;
    }

    boolean pending() {
        return liveCount > 0;
    }

    // ------------------------------------------------------------------ issue

    /** cp.async.ca/.cg: 4, 8 or 16 bytes global to shared, zero-filled beyond src-size. */
    void issueCopy(Warp w, Op op, int pc, int mask, int exec) {
        CopyForm form = (CopyForm) op.form;
        MemoryAccess source = form.source();
        byte[] shared = cta.shared;
        for (int m = exec; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            long to = engine.memory.address(w, op, l);
            long from = engine.memory.address(w, source, l);
            int n = (int) engine.operands.read(w, op, 0, l);
            int srcSize = n;
            if (op.sources() > 1) {
                long v = engine.operands.read(w, op, 1, l);
                srcSize = form.ignoreSource() ? ((v & 1) != 0 ? 0 : n) : (int) Math.min(n, Bits.zx(v, 32));
            }
            if ((to & (n - 1)) != 0 || (from & (n - 1)) != 0) {
                throw new MemoryFault(String.format("misaligned %d-byte cp.async (dst 0x%x, src 0x%x)", n, to, from));
            }
            if (to < 0 || to + n > shared.length) {
                throw new MemoryFault(String.format("cp.async destination 0x%x (%d bytes) is outside the %d-byte"
                        + " shared space", to, n, shared.length));
            }
            long lo = 0, hi = 0;
            boolean loaded = false;
            if (srcSize == n && n >= 8) {
                // The whole aligned source in one or two loads; where that faults, byte by byte
                // below, which reports the first byte out of bounds.
                try {
                    lo = engine.memory.load(w, source.space(), from, 8, l);
                    hi = n == 16 ? engine.memory.load(w, source.space(), from + 8, 8, l) : 0;
                    loaded = true;
                } catch (MemoryFault f) {
                    lo = hi = 0;
                }
            }
            if (!loaded) {
                for (int k = 0; k < srcSize; k++) {
                    long b = engine.memory.load(w, source.space(), from + k, 1, l);
                    if (k < 8) {
                        lo |= b << (8 * k);
                    } else {
                        hi |= b << (8 * (k - 8));
                    }
                }
            }
            int t = w.id * 32 + l;
            io.ptxrun.exec.order.MemoryOrder.CopyOrigin o = issued(w, l, pc);
            if (o != null && srcSize > 0) {
                engine.ordering.copyAccess(o, source.space(), from, srcSize, false);
            }
            int e = allocate(COPY, t, committed[t], pc);
            origin[e] = o;
            dst[e] = to;
            dstGlobal[e] = false;
            target[e] = cta;
            size[e] = n;
            low[e] = lo;
            high[e] = hi;
            if (timing == SyncOptions.CopyTiming.EAGER) {
                land(e);
            }
        }
        engine.advance(w, mask, pc + 1);
    }

    /**
     * Non-tensor cp.async.bulk and cp.reduce.async.bulk (9.7.9.25.4): complete_tx on an mbarrier
     * or a bulk async-group. A shared::cluster destination may be a peer's shared memory; with
     * .multicast::cluster the bytes land at the same offset in every CTA the ctaMask names, each
     * signalling the mbarrier at the same offset in its own shared memory.
     */
    void issueBulk(Warp w, Op op, int pc, int mask, int exec) {
        BulkForm form = (BulkForm) op.form;
        MemoryAccess source = form.source();
        for (int m = exec; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            long to = engine.memory.address(w, op, l);
            long from = engine.memory.address(w, source, l);
            int n = (int) Bits.zx(engine.operands.read(w, op, 0, l), 32);
            if ((n & 15) != 0) {
                hazards.undefined(op, pc, "exec.bulk", "size " + n + " of '" + op.mnemonic() + "' is not a multiple"
                        + " of 16 (9.7.9.25.4.1)", engine.where(w, l));
            }
            if ((to & 15) != 0 || (from & 15) != 0) {
                hazards.undefined(op, pc, "exec.bulk", String.format("'%s' needs 16-byte aligned addresses"
                        + " (dst 0x%x, src 0x%x; 9.7.9.25.4.1)", op.mnemonic(), to, from), engine.where(w, l));
            }
            // The source is read at issue: the program must not change it before the copy completes.
            byte[] data = new byte[n];
            for (int k = 0; k < n; k++) {
                data[k] = (byte) engine.memory.load(w, source.space(), from + k, 1, l);
            }
            io.ptxrun.exec.order.MemoryOrder.CopyOrigin o = issued(w, l, pc);
            if (o != null) {
                engine.order.inAsyncProxy(o);
            }
            if (o != null && n > 0) {
                engine.ordering.copyAccess(o, source.space(), from, n, false);
            }
            issuing = o;
            int group = form.barrier() == null ? bulkCommitted[w.id * 32 + l] : NONE;
            if (op.mem.space() == Space.GLOBAL) {
                if (n > 0) {
                    // Faults of the destination belong to the issuing op, not to the moment the bytes land.
                    engine.memory.load(w, op.mem.space(), to, 1, l);
                    engine.memory.load(w, op.mem.space(), to + n - 1, 1, l);
                }
                enqueueBulk(w, l, pc, group, null, to, data, NONE);
                continue;
            }
            int bar = NONE;
            if (form.barrier() != null) {
                long a = engine.memory.address(w, form.barrier(), l);
                if (form.barrier().space() == Space.GENERIC) {
                    a -= Space.ofGeneric(a).window;
                }
                bar = (int) Cta.offsetOf(a);
            }
            int offset = (int) Cta.offsetOf(to);
            if (form.multicast()) {
                int ctaMask = (int) engine.operands.read(w, op, 1, l) & 0xffff;
                String problem = engine.geometry().multicastMaskProblem(ctaMask);
                if (problem != null) {
                    hazards.undefined(op, pc, "exec.bulk", "multicast " + problem + " (9.7.9.25.4.1)",
                            engine.where(w, l));
                    ctaMask &= (1 << engine.geometry().clusterNctarank()) - 1;
                }
                for (int r = ClusterGeometry.nextMulticastRank(ctaMask, -1); r >= 0;
                        r = ClusterGeometry.nextMulticastRank(ctaMask, r)) {
                    enqueueBulk(w, l, pc, group, checkedTarget(engine.cluster()[r], offset, n), offset, data, bar);
                }
            } else {
                enqueueBulk(w, l, pc, group, checkedTarget(engine.memory.sharedOwner(to), offset, n), offset, data, bar);
            }
        }
        engine.advance(w, mask, pc + 1);
    }

    /**
     * st.async and red.async (9.7.9.12, 9.7.13.8): the register value, read at issue, lands in the
     * shared memory of a peer CTA as a bulk copy of its bytes (a bulk reduction for red.async),
     * then performs complete-tx of its size on the mbarrier. The store is weak and in the generic
     * proxy (no proxy fence needed), a reduction relaxed; the complete-tx releases at cluster
     * scope, so what the issuer knew at issue reaches the threads that see the phase complete.
     * Undefined: the destination and the mbarrier in different CTAs, a cluster of one CTA, for
     * red.async a destination in the issuing CTA, and a generic address outside the shared window.
     */
    void issueStore(Warp w, Op op, int pc, int mask, int exec) {
        StoreForm form = (StoreForm) op.form;
        int size = form.elements() * form.elementBytes();
        for (int m = exec; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            long to = LaneMemory.sharedAddressOf(op.mem.space(), engine.memory.address(w, op, l));
            long at = LaneMemory.sharedAddressOf(form.barrier().space(), engine.memory.address(w, form.barrier(), l));
            if ((to & (size - 1)) != 0) {
                throw new MemoryFault(String.format("misaligned %d-byte '%s' at shared::cluster 0x%x (the address"
                        + " must be a multiple of the value's size)", size, op.mnemonic(), to));
            }
            Cta dest = engine.memory.sharedOwner(to);
            Cta barOwner = engine.memory.sharedOwner(at);
            boolean reduction = form.redOp() != null;
            String section = reduction ? "9.7.13.8" : "9.7.9.12";
            if (engine.geometry().clusterNctarank() < 2) {
                hazards.undefined(op, pc, "exec.async-store", String.format("'%s' in a cluster of one CTA: it needs"
                        + " %%cluster_nctarank > 1 (%s)", op.mnemonic(), section), engine.where(w, l));
            } else if (barOwner != dest) {
                hazards.undefined(op, pc, "exec.async-store", String.format("the destination of '%s' is in CTA rank"
                        + " %d and its mbarrier in CTA rank %d: both must belong to the same CTA (%s)", op.mnemonic(),
                        dest.rank, barOwner.rank, section), engine.where(w, l));
            } else if (reduction && dest == cta) {
                hazards.undefined(op, pc, "exec.async-store", String.format("the destination and mbarrier of '%s'"
                        + " are in the issuing CTA (rank %d): they must be in another CTA of the cluster (%s)",
                        op.mnemonic(), cta.rank, section), engine.where(w, l));
            }
            int offset = (int) Cta.offsetOf(to);
            byte[] data = new byte[size];
            for (int k = 0; k < form.elements(); k++) {
                Bytes.put(data, k * form.elementBytes(), form.elementBytes(), engine.operands.read(w, op, k, l));
            }
            issuing = issued(w, l, pc);
            enqueueBulk(w, l, pc, NONE, checkedTarget(dest, offset, size), offset, data, (int) Cta.offsetOf(at));
        }
        engine.advance(w, mask, pc + 1);
    }

    private static Cta checkedTarget(Cta to, int offset, int n) {
        if (offset < 0 || offset + n > to.shared.length) {
            throw new MemoryFault(String.format("bulk copy destination 0x%x (%d bytes) is outside the %d-byte shared"
                    + " space of CTA rank %d", offset, n, to.shared.length, to.rank));
        }
        return to;
    }

    /** One pending bulk transfer of {@code data} to global {@code to} (target null) or to a CTA's shared offset. */
    private void enqueueBulk(Warp w, int l, int pc, int group, Cta to, long at, byte[] data, int bar) {
        int e = allocate(BULK, w.id * 32 + l, group, pc);
        origin[e] = issuing;
        dst[e] = at;
        dstGlobal[e] = to == null;
        target[e] = to;
        size[e] = data.length;
        bulkData[e] = data;
        mbarrier[e] = bar;
        if (bar != NONE) {
            issuePhase[e] = to.mbarriers.phaseOf(bar);
        }
        if (timing == SyncOptions.CopyTiming.EAGER) {
            land(e);
        }
    }

    /**
     * cp.async.bulk.tensor (9.7.9.25.5): a load reads the box from global memory at issue and
     * lands it, fill values included, in the destination CTA(s), signalling complete_tx of the
     * whole box; a store or reduction snapshots the shared source at issue and writes the in-bounds
     * elements when it lands (bulk async-group). A prefetch only checks its operands. The load mode
     * picks the box: tile, tile::gather4/scatter4, im2col, im2col::w(::128), im2col_no_offs.
     */
    void issueTensor(Warp w, Op op, int pc, int mask, int exec) {
        TensorForm form = (TensorForm) op.form;
        for (int m = exec; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            long mapAddress = engine.operands.read(w, op, 0, l);
            TensorMap map = engine.memory.tensorMap(mapAddress);
            engine.tensorMaps.checkFenced(w, op, pc, l, mapAddress);
            TensorCopy copy = plan(w, op, form, pc, l, map);
            if (copy == null || form.direction() == TensorForm.Direction.PREFETCH) {
                continue;
            }
            long to = engine.memory.address(w, op, l);
            int offset = (int) Cta.offsetOf(to);
            issuing = issued(w, l, pc);
            if (issuing != null) {
                engine.order.inAsyncProxy(issuing);
            }
            if ((to & 127) != 0) {
                hazards.undefined(op, pc, "exec.tensor", String.format("shared address 0x%x of '%s' is not 128-byte"
                        + " aligned (9.7.9.25.5.1)", to, op.mnemonic()), engine.where(w, l));
            }
            copy = copy.atSharedAddress(offset);
            // Swizzling moves bytes within their 128-byte line, so rows may reach past the footprint.
            int span = Math.min(copy.sharedFootprint() + 128, cta.shared.length - offset);
            if (form.direction() == TensorForm.Direction.STORE) {
                if (offset < 0 || copy.sharedFootprint() > span) {
                    throw new MemoryFault(String.format("tensor copy source 0x%x (%d bytes) is outside the %d-byte"
                            + " shared space", to, copy.sharedFootprint(), cta.shared.length));
                }
                int e = allocate(TENSOR_STORE, w.id * 32 + l, bulkCommitted[w.id * 32 + l], pc);
                origin[e] = issuing;
                if (issuing != null) {
                    io.ptxrun.exec.order.MemoryOrder.CopyOrigin reader = issuing;
                    Granules read = new Granules((a, n) -> engine.order.copyReads(reader,
                            io.ptxrun.exec.order.MemoryOrder.SHARED, cta.rank, a, n));
                    copy.forEachElement((address, at, bytes, inBounds) -> {
                        if (inBounds) {
                            read.add(offset + at, bytes);
                        }
                    });
                    read.flush();
                }
                bulkData[e] = Arrays.copyOfRange(cta.shared, offset, offset + span);
                plan[e] = copy;
                if (timing == SyncOptions.CopyTiming.EAGER) {
                    land(e);
                }
                continue;
            }
            byte[] data = new byte[copy.sharedFootprint() + 128];
            boolean[] mask16 = new boolean[data.length];
            long fill = copy.oobFillBits();
            GlobalMemory global = engine.global();
            copy.forEachElement((address, at, bytes, inBounds) -> {
                Bytes.put(data, at, bytes, inBounds ? global.load(address, bytes) : fill);
                Arrays.fill(mask16, at, at + bytes, true);
            });
            int bar = NONE;
            Cta barOwner = null;
            if (form.barrier() != null) {
                long barAddress = engine.memory.address(w, form.barrier(), l);
                bar = (int) Cta.offsetOf(barAddress);
                barOwner = engine.memory.sharedOwner(barAddress);
            }
            if (form.multicast()) {
                int ctaMask = (int) engine.operands.read(w, op, form.ctaMaskSource(), l) & 0xffff;
                String problem = engine.geometry().multicastMaskProblem(ctaMask);
                if (problem != null) {
                    hazards.undefined(op, pc, "exec.tensor", "multicast " + problem + " (9.7.9.25.5.1)",
                            engine.where(w, l));
                    ctaMask &= (1 << engine.geometry().clusterNctarank()) - 1;
                }
                for (int r = ClusterGeometry.nextMulticastRank(ctaMask, -1); r >= 0;
                        r = ClusterGeometry.nextMulticastRank(ctaMask, r)) {
                    Cta dest = engine.cluster()[r];
                    Cta signal = signalled(w, op, pc, l, dest, barOwner, true);
                    enqueueTensorLoad(w, l, pc, dest, offset, data, mask16, copy.txBytes(), bar, signal);
                }
            } else {
                Cta dest = engine.memory.sharedOwner(to);
                Cta signal = signalled(w, op, pc, l, dest, barOwner, false);
                enqueueTensorLoad(w, l, pc, dest, offset, data, mask16, copy.txBytes(), bar, signal);
            }
        }
        engine.advance(w, mask, pc + 1);
    }

    /**
     * The CTA whose mbarrier a load into {@code dest} signals (9.7.9.25.5.2, .cta_group): with
     * .cta_group::1 (the default) the mbarrier is in the destination CTA; with .cta_group::2 it may
     * be in the destination's peer CTA (cluster ranks 2k and 2k+1 form a pair), and a multicast
     * signals, for each destination, the CTA of the pair with the parity of the mbarrier's CTA.
     */
    private Cta signalled(Warp w, Op op, int pc, int l, Cta dest, Cta barOwner, boolean multicast) {
        if (barOwner == null) {
            return dest;
        }
        if (!((TensorForm) op.form).ctaGroup2()) {
            if (!multicast && barOwner != dest) {
                hazards.undefined(op, pc, "exec.tensor-cta-group", "the mbarrier of '" + op.mnemonic()
                        + "' is in CTA rank " + barOwner.rank + ", not in the destination CTA rank " + dest.rank
                        + ": with .cta_group::1 (the default) it must be in the same CTA as dstMem (9.7.9.25.5.2)",
                        engine.where(w, l));
            }
            return dest;
        }
        int pairBase = dest.rank & ~1;
        int rank = pairBase | (barOwner.rank & 1);
        if (!multicast && (barOwner.rank & ~1) != pairBase) {
            hazards.undefined(op, pc, "exec.tensor-cta-group", "the mbarrier of '" + op.mnemonic()
                    + "' is in CTA rank " + barOwner.rank + ", neither the destination CTA rank " + dest.rank
                    + " nor its peer in the CTA pair (.cta_group::2, 9.7.9.25.5.2)", engine.where(w, l));
            return dest;
        }
        Cta[] cluster = engine.cluster();
        if (rank >= cluster.length || cluster[rank] == null) {
            hazards.undefined(op, pc, "exec.tensor-cta-group", "'" + op.mnemonic() + "' with .cta_group::2 signals"
                    + " the peer CTA rank " + rank + " of destination rank " + dest.rank + ", which the cluster does"
                    + " not have (9.7.9.25.5.2)", engine.where(w, l));
            return dest;
        }
        return cluster[rank];
    }

    /**
     * The element moves of a tensor copy for its load mode and operands, or null (after a
     * diagnostic) when the map and the instruction disagree.
     */
    private TensorCopy plan(Warp w, Op op, TensorForm form, int pc, int l, TensorMap map) {
        LoadMode mode = form.loadMode();
        String where = engine.where(w, l);
        if (mode.im2colMap() != map.isIm2col()
                || (map.isIm2col() && map.im2col().kind().wide() != (mode == LoadMode.IM2COL_W
                        || mode == LoadMode.IM2COL_W_128))) {
            String kind = map.isIm2col() ? (map.im2col().kind().wide() ? "an im2col wide" : "an im2col") : "a tiled";
            hazards.undefined(op, pc, "exec.tensor-mode", "'" + op.mnemonic() + "' in load mode ." + mode.ptxName()
                    + " uses " + kind + " tensor map (PTX ISA 5.5: the map's mode must match the load mode)", where);
            return null;
        }
        if (map.rank() != form.dimensions()) {
            hazards.undefined(op, pc, "exec.tensor", "'" + op.mnemonic() + "' names ." + form.dimensions()
                    + "d, but the tensor map has rank " + map.rank() + " (9.7.9.25.5.2)", where);
            return null;
        }
        int[] coords = new int[form.coordinates()];
        for (int k = 0; k < coords.length; k++) {
            coords[k] = (int) engine.operands.read(w, op, 1 + k, l);
        }
        int[] info = new int[form.im2colInfo()];
        for (int k = 0; k < info.length; k++) {
            // The im2col operands are 16-bit unsigned (9.7.9.25.5.2).
            info[k] = (int) engine.operands.read(w, op, 1 + coords.length + k, l) & 0xffff;
        }
        int expectedCoords = mode == LoadMode.TILE_GATHER4 ? 5 : map.rank();
        if (coords.length != expectedCoords) {
            hazards.undefined(op, pc, "exec.tensor", "'" + op.mnemonic() + "' needs " + expectedCoords
                    + " coordinates in load mode ." + mode.ptxName() + ", got " + coords.length + " (9.7.9.25.5.2)",
                    where);
            return null;
        }
        switch (mode) {
            case TILE: {
                String misaligned = TensorCopy.innerCoordinateProblem(map, coords[0]);
                if (misaligned != null) {
                    hazards.undefined(op, pc, "exec.tensor", misaligned, where);
                    return null;
                }
                return TensorCopy.tile(map, coords);
            }
            case TILE_GATHER4:
                if (map.rank() != 2) {
                    hazards.undefined(op, pc, "exec.tensor", "'" + op.mnemonic() + "' needs a 2D tensor map,"
                            + " not rank " + map.rank() + " (9.7.9.25.5.2)", where);
                    return null;
                }
                return TensorCopy.gather4(map, coords[0], coords[1], coords[2], coords[3], coords[4]);
            case IM2COL:
            case IM2COL_NO_OFFS: {
                int[] offsets = mode == LoadMode.IM2COL ? info : new int[map.rank() - 2];
                if (offsets.length != map.rank() - 2) {
                    hazards.undefined(op, pc, "exec.tensor", "'" + op.mnemonic() + "' needs " + (map.rank() - 2)
                            + " im2col offsets (two less than ." + map.rank() + "d), got " + offsets.length
                            + " (9.7.9.25.5.2)", where);
                    return null;
                }
                if (form.direction() == TensorForm.Direction.STORE || form.redOp() != null) {
                    if (!storeBoxInside(map, coords)) {
                        hazards.undefined(op, pc, "exec.tensor", "'" + op.mnemonic() + "' stores need non-negative"
                                + " coordinates and a bounding box inside the tensor (lower corner >= 0, upper"
                                + " corner <= 0; 9.7.9.25.5.1)", where);
                        return null;
                    }
                }
                return TensorCopy.im2col(map, shape(map), coords, offsets);
            }
            default: {
                if (info.length != 2) {
                    hazards.undefined(op, pc, "exec.tensor", "'" + op.mnemonic() + "' needs {wHalo, wOffset},"
                            + " got " + info.length + " operands (9.7.9.25.5.2)", where);
                    return null;
                }
                boolean w128 = mode == LoadMode.IM2COL_W_128;
                int haloLimit = w128 ? 32 : 512;
                if (info[0] >= haloLimit || info[1] >= 32) {
                    hazards.undefined(op, pc, "exec.tensor-im2col-w", "'" + op.mnemonic() + "' has wHalo "
                            + info[0] + " and wOffset " + info[1] + ": the valid ranges are [0, " + haloLimit
                            + ") and [0, 32) (9.7.9.25.5.2)", where);
                    return null;
                }
                return TensorCopy.im2colW(map, shape(map), coords, info[0], info[1], w128);
            }
        }
    }

    private static boolean storeBoxInside(TensorMap map, int[] coords) {
        for (int c : coords) {
            if (c < 0) {
                return false;
            }
        }
        return map.im2col().lowerCorner().stream().allMatch(v -> v >= 0)
                && map.im2col().upperCorner().stream().allMatch(v -> v <= 0);
    }

    private static Im2colShape shape(TensorMap map) {
        var im = map.im2col();
        return new Im2colShape(im.lowerCorner(), im.upperCorner(), im.channelsPerPixel(), im.pixels());
    }

    private void enqueueTensorLoad(Warp w, int l, int pc, Cta to, int at, byte[] data, boolean[] mask, int txBytes,
            int bar, Cta signal) {
        int n = Math.min(data.length, to.shared.length - at);
        for (int k = n; k < data.length; k++) {
            if (mask[k]) {
                throw new MemoryFault(String.format("tensor copy destination 0x%x is outside the %d-byte shared space"
                        + " of CTA rank %d", at, to.shared.length, to.rank));
            }
        }
        int e = allocate(TENSOR_LOAD, w.id * 32 + l, NONE, pc);
        origin[e] = issuing;
        dst[e] = at;
        dstGlobal[e] = false;
        target[e] = to;
        size[e] = txBytes;
        bulkData[e] = n == data.length ? data : Arrays.copyOf(data, n);
        written[e] = n == mask.length ? mask : Arrays.copyOf(mask, n);
        mbarrier[e] = bar;
        signalled[e] = signal;
        if (bar != NONE) {
            issuePhase[e] = signal.mbarriers.phaseOf(bar);
        }
        if (timing == SyncOptions.CopyTiming.EAGER) {
            land(e);
        }
    }

    /** The in-bounds elements of a tensor store or reduction, from the source snapshot, into global memory. */
    private void landTensorStore(Op op, TensorCopy copy, byte[] source,
            io.ptxrun.exec.order.MemoryOrder.CopyOrigin o) {
        GlobalMemory global = engine.global();
        ReductionOp redOp = ((TensorForm) op.form).redOp();
        ReductionType type = redOp == null ? null : TensorCopy.reductionType(redOp, copy.map().type());
        Granules written = o == null ? null : new Granules((a, n) -> engine.order.copyWrites(o,
                io.ptxrun.exec.order.MemoryOrder.GLOBAL, 0, a, n, type != null));
        copy.forEachElement((address, at, bytes, inBounds) -> {
            if (!inBounds) {
                return;
            }
            if (written != null) {
                written.add(address, bytes);
            }
            long value = Bytes.get(source, at, bytes);
            if (type != null) {
                reduceGlobal(redOp, type, address, value, bytes);
            } else {
                global.store(address, bytes, value);
            }
        });
        if (written != null) {
            written.flush();
        }
    }

    /**
     * A tensor copy's element accesses as the hazard detector takes them: consecutive elements
     * within one aligned 16 bytes (the unit the tensor copy engine moves) as one access, the
     * elements' order kept. Checked element by element, a tile of 2-byte elements split every
     * word of the shadow in two and made a check (and, in a kernel with a true race, a report)
     * per element.
     */
    static final class Granules {
        interface Access {
            void check(long address, int bytes);
        }

        private final Access access;
        private long start = -1, end;

        Granules(Access access) {
            this.access = access;
        }

        void add(long address, int bytes) {
            if (start >= 0 && address == end && (address + bytes - 1 | 15) == (start | 15)) {
                end += bytes;
                return;
            }
            flush();
            start = address;
            end = address + bytes;
        }

        void flush() {
            if (start >= 0) {
                access.check(start, (int) (end - start));
                start = -1;
            }
        }
    }

    /**
     * One element of a reduction into global memory. Other clusters may run on other threads and
     * reduce into the same element: each element is one atomic read-modify-write.
     */
    private void reduceGlobal(ReductionOp redOp, ReductionType type, long address, long value, int bytes) {
        engine.global().readModifyWrite(address, bytes, old -> BulkReduction.combine(redOp, type, old, value));
    }

    /** The arrive of cp.async.mbarrier.arrive: it fires once the lane's earlier copies have landed. */
    void enqueueArrive(Warp w, int l, int pc, Cta owner, int mbarrierAt) {
        int t = w.id * 32 + l;
        int e = allocate(ARRIVE, t, NONE, pc);
        origin[e] = engine.order == null ? null : engine.order.lastCopies(engine.ordering.slot(w, l), pc);
        target[e] = owner;
        mbarrier[e] = mbarrierAt;
        if (timing == SyncOptions.CopyTiming.EAGER && head[t] == e) {
            land(e);
        }
    }

    /** commit_group / wait_group / wait_all and their bulk forms (the op's {@link GroupStep} says which). */
    void group(Warp w, Op op, int pc, int mask, int exec) {
        for (int m = exec; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            int t = w.id * 32 + l;
            io.ptxrun.exec.order.MemoryOrder order = engine.order;
            int slot = order == null ? 0 : engine.ordering.slot(w, l);
            switch ((GroupStep) op.form) {
                case COMMIT -> {
                    if (order != null) {
                        order.commit(slot, committed[t], false);
                    }
                    committed[t]++;
                }
                case WAIT -> {
                    int before = committed[t] - (int) engine.operands.read(w, op, 0, l);
                    landGroups(t, COPY, before);
                    if (order != null) {
                        order.groupsComplete(slot, before, false);
                    }
                }
                case WAIT_ALL -> {
                    if (order != null) {
                        order.commit(slot, committed[t], false);
                    }
                    landGroups(t, COPY, ++committed[t]);
                    if (order != null) {
                        order.groupsComplete(slot, committed[t], false);
                    }
                }
                case BULK_COMMIT -> {
                    if (order != null) {
                        order.commit(slot, bulkCommitted[t], true);
                    }
                    bulkCommitted[t]++;
                }
                default -> {
                    int before = bulkCommitted[t] - (int) engine.operands.read(w, op, 0, l);
                    landGroups(t, BULK, before);
                    if (order != null) {
                        order.groupsComplete(slot, before, true);
                    }
                }
            }
        }
        engine.advance(w, mask, pc + 1);
    }

    /** Lands the thread's copies of {@code which} kind whose group is older than {@code before}. */
    private void landGroups(int t, byte which, int before) {
        for (int e = head[t]; e != NONE; ) {
            int following = next[e];
            if (kind[e] == which && group[e] != NONE && group[e] < before) {
                land(e);
            }
            e = following;
        }
    }

    // ------------------------------------------------------------------ completion

    /**
     * No thread can progress: everything pending lands now (the last legal moment of copies an
     * mbarrier tracks). Returns false when nothing was pending.
     */
    boolean landForStall() {
        if (liveCount == 0) {
            return false;
        }
        for (int t = 0; t < head.length; t++) {
            while (head[t] != NONE) {
                land(head[t]);
            }
        }
        return true;
    }

    /** With random timing, lands a random number of random pending operations. */
    void randomTick() {
        if (timing != SyncOptions.CopyTiming.RANDOM || liveCount == 0) {
            return;
        }
        for (int k = random.nextInt(liveCount + 1); k > 0 && liveCount > 0; k--) {
            int e = live[random.nextInt(liveCount)];
            if (kind[e] == ARRIVE) {
                // The arrive waits for the thread's earlier copies.
                e = head[thread[e]];
            }
            land(e);
        }
    }

    private void land(int e) {
        Cta to = target[e];
        byte[] shared = to == null ? null : to.shared;
        Warp issuer = cta.warps[thread[e] >> 5];
        switch (kind[e]) {
            case COPY -> {
                int at = (int) dst[e];
                int n = size[e];
                if (origin[e] != null) {
                    landedInPeer(e, to);
                    engine.order.copyWrites(origin[e], io.ptxrun.exec.order.MemoryOrder.SHARED, to.rank, at, n, false);
                }
                Bytes.put(shared, at, Math.min(n, 8), low[e]);
                if (n > 8) {
                    Bytes.put(shared, at + 8, n - 8, high[e]);
                }
            }
            case BULK -> {
                byte[] data = bulkData[e];
                bulkData[e] = null;
                Reducing form = (Reducing) engine.opAt(issuedAt[e]).form;
                if (origin[e] != null && data.length > 0) {
                    if (!dstGlobal[e]) {
                        landedInPeer(e, to);
                    }
                    engine.order.copyWrites(origin[e], dstGlobal[e] ? io.ptxrun.exec.order.MemoryOrder.GLOBAL
                            : io.ptxrun.exec.order.MemoryOrder.SHARED, dstGlobal[e] ? 0 : to.rank, dst[e], data.length,
                            form.redOp() != null);
                }
                if (dstGlobal[e]) {
                    if (form.redOp() != null) {
                        int n = form.redType().byteSize();
                        for (int k = 0; k + n <= data.length; k += n) {
                            reduceGlobal(form.redOp(), form.redType(), dst[e] + k, Bytes.get(data, k, n), n);
                        }
                    } else {
                        engine.global().write(dst[e], data);
                    }
                } else {
                    if (form.redOp() != null) {
                        BulkReduction.apply(form.redOp(), form.redType(), shared, (int) dst[e], data, 0, data.length);
                    } else {
                        System.arraycopy(data, 0, shared, (int) dst[e], data.length);
                    }
                }
                if (mbarrier[e] != NONE) {
                    if (origin[e] != null) {
                        engine.order.mbarrierCopyComplete(to.rank, mbarrier[e], origin[e]);
                    }
                    checkPhase(e, to);
                    to.mbarriers.changeTx(engine.opAt(issuedAt[e]), issuedAt[e], issuer, thread[e] & 31,
                            mbarrier[e], -data.length);
                }
            }
            case TENSOR_LOAD -> {
                byte[] data = bulkData[e];
                boolean[] mask = written[e];
                int at = (int) dst[e];
                for (int k = 0; k < data.length; k++) {
                    if (mask[k]) {
                        shared[at + k] = data[k];
                    }
                }
                if (origin[e] != null) {
                    landedInPeer(e, to);
                    for (int k = 0; k < mask.length; ) {
                        int run = k;
                        while (run < mask.length && mask[run]) {
                            run++;
                        }
                        if (run > k) {
                            engine.order.copyWrites(origin[e], io.ptxrun.exec.order.MemoryOrder.SHARED, to.rank,
                                    at + k, run - k, false);
                        }
                        k = run + 1;
                    }
                }
                if (mbarrier[e] != NONE) {
                    if (origin[e] != null) {
                        engine.order.mbarrierCopyComplete(signalled[e].rank, mbarrier[e], origin[e]);
                    }
                    checkPhase(e, signalled[e]);
                    signalled[e].mbarriers.changeTx(engine.opAt(issuedAt[e]), issuedAt[e], issuer, thread[e] & 31,
                            mbarrier[e], -size[e]);
                }
            }
            case TENSOR_STORE -> landTensorStore(engine.opAt(issuedAt[e]), plan[e], bulkData[e], origin[e]);
            default -> {
                if (origin[e] != null) {
                    engine.order.mbarrierCopyComplete(to.rank, mbarrier[e], origin[e]);
                }
                to.mbarriers.arrive(engine.opAt(issuedAt[e]), issuedAt[e], issuer, thread[e] & 31,
                    mbarrier[e], 1, false, false);
            }
        }
        target[e] = null;
        origin[e] = null;
        signalled[e] = null;
        bulkData[e] = null;
        written[e] = null;
        plan[e] = null;
        release(e);
        engine.progressed();
    }

    /**
     * A copy's bytes land in the shared memory of CTA {@code to}: when that is a peer's (a
     * shared::cluster destination, or a multicast), the write must happen before the peer exits:
     * checked there, or now when the peer has exited already.
     */
    private void landedInPeer(int e, Cta to) {
        if (to == cta) {
            return;
        }
        if (to.exited()) {
            engine.ordering.copyLandedAfterExit(engine.opAt(issuedAt[e]), to, cta.rank, thread[e]);
        }
        to.peerAccesses.record(origin[e].agent(), origin[e].clock(), issuedAt[e]);
    }

    // ------------------------------------------------------------------ hazards

    /**
     * A copy's complete-tx belongs to the phase it was issued in: landing after that phase
     * completed means the phase's expect-tx was short of the bytes in flight, so its waiters went
     * on while this copy was still writing (9.7.13.15.1: the phase completes when the tx-count
     * reaches zero).
     */
    private void checkPhase(int e, Cta owner) {
        if (engine.order == null || owner.mbarriers.phaseOf(mbarrier[e]) == issuePhase[e]) {
            return;
        }
        Op copy = engine.opAt(issuedAt[e]);
        Warp issuer = cta.warps[thread[e] >> 5];
        int l = thread[e] & 31;
        String expect = owner.mbarriers.lastExpectTx(mbarrier[e]);
        engine.hazard(copy, issuedAt[e], "async.tx-mismatch", String.format("the %d bytes of '%s' land after the"
                + " phase of the mbarrier at shared 0x%x they were counted in has completed: %s; the phase's waiters"
                + " went on while this copy was still writing (the expect-tx of a phase must cover every byte"
                + " the copies signalling it deliver, 9.7.13.15.1) (thread tid (%d,%d,%d) of CTA ctaid (%d,%d,%d))",
                size[e] == 0 && bulkData[e] != null ? bulkData[e].length : size[e], copy.mnemonic(), mbarrier[e],
                expect, issuer.tidX[l], issuer.tidY[l], issuer.tidZ[l], cta.ctaid[0], cta.ctaid[1], cta.ctaid[2]));
    }

    /** The copy a lane issues now, as the hazard detector sees it (null when it is off). */
    private io.ptxrun.exec.order.MemoryOrder.CopyOrigin issuing;

    private io.ptxrun.exec.order.MemoryOrder.CopyOrigin issued(Warp w, int l, int pc) {
        return engine.order == null ? null : engine.order.issue(engine.ordering.slot(w, l), pc);
    }

    /**
     * Whether {@code test} holds for a write of this CTA's copies still to land into the shared
     * memory of CTA rank {@code rank}: cp.async copies, bulk copies and st.async into shared
     * memory, tensor loads (their whole box, masked elements included).
     */
    boolean pendingWrite(int rank, io.ptxrun.exec.order.MemoryOrder.PendingTest test) {
        for (int i = 0; i < liveCount; i++) {
            int e = live[i];
            Cta to = target[e];
            if (to == null || to.rank != rank) {
                continue;
            }
            int n = switch (kind[e]) {
                case COPY -> size[e];
                case BULK -> dstGlobal[e] ? 0 : size[e];
                case TENSOR_LOAD -> written[e] == null ? 0 : written[e].length;
                default -> 0;
            };
            if (n > 0 && origin[e] != null && test.test(dst[e], n, origin[e])) {
                return true;
            }
        }
        return false;
    }

    // ------------------------------------------------------------------ pool

    private int allocate(byte k, int t, int g, int pc) {
        int e;
        if (freeHead != NONE) {
            e = freeHead;
            freeHead = next[e];
        } else {
            if (used == kind.length) {
                grow();
            }
            e = used++;
        }
        kind[e] = k;
        thread[e] = t;
        group[e] = g;
        issuedAt[e] = pc;
        mbarrier[e] = NONE;
        next[e] = NONE;
        prev[e] = tail[t];
        if (tail[t] == NONE) {
            head[t] = e;
        } else {
            next[tail[t]] = e;
        }
        tail[t] = e;
        livePos[e] = liveCount;
        live[liveCount++] = e;
        return e;
    }

    private void release(int e) {
        int t = thread[e];
        if (prev[e] == NONE) {
            head[t] = next[e];
        } else {
            next[prev[e]] = next[e];
        }
        if (next[e] == NONE) {
            tail[t] = prev[e];
        } else {
            prev[next[e]] = prev[e];
        }
        int last = live[--liveCount];
        live[livePos[e]] = last;
        livePos[last] = livePos[e];
        next[e] = freeHead;
        freeHead = e;
    }

    private void grow() {
        int n = kind.length * 2;
        kind = Arrays.copyOf(kind, n);
        thread = Arrays.copyOf(thread, n);
        group = Arrays.copyOf(group, n);
        prev = Arrays.copyOf(prev, n);
        next = Arrays.copyOf(next, n);
        issuedAt = Arrays.copyOf(issuedAt, n);
        dst = Arrays.copyOf(dst, n);
        dstGlobal = Arrays.copyOf(dstGlobal, n);
        target = Arrays.copyOf(target, n);
        size = Arrays.copyOf(size, n);
        low = Arrays.copyOf(low, n);
        high = Arrays.copyOf(high, n);
        bulkData = Arrays.copyOf(bulkData, n);
        written = Arrays.copyOf(written, n);
        plan = Arrays.copyOf(plan, n);
        mbarrier = Arrays.copyOf(mbarrier, n);
        signalled = Arrays.copyOf(signalled, n);
        livePos = Arrays.copyOf(livePos, n);
        issuePhase = Arrays.copyOf(issuePhase, n);
        origin = Arrays.copyOf(origin, n);
        live = Arrays.copyOf(live, n);
    }
}
