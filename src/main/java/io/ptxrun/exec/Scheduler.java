package io.ptxrun.exec;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Decides what runs when, for one worker: it starts a cluster's CTAs and their warps, gives the
 * warps turns in rounds, and judges each round by what the {@link Engine} counted during it
 * (thread-instructions, progress events). A round in which no thread can progress by itself is a
 * stall: pending copies land, then suspended waits time out, and a stall that recurs with nothing
 * changed is a deadlock; rounds that return to an earlier state without effect are a spin that
 * never ends ({@link SpinDetector}); the instruction and wall-clock budgets stop the run. It keeps
 * the cluster's virtual clock, which stands still in a stall.
 *
 * <p>It is separate from the engine so that the two can be read and changed apart: the engine
 * says what an instruction does (and the compiled regions do the same through it), the scheduler
 * never looks inside an instruction; it only calls {@link Engine#step} for a warp's turn. The one
 * schedule choice made by the engine is which group of a diverged warp's lanes runs next, since
 * that is decided at each step (lowest program counter first, or {@link RandomSchedule}). What a
 * stop reports is worded by {@link StopReports}.
 */
final class Scheduler {
    /** Ops a warp runs before the next warp gets a turn (spin loops across warps need turns). */
    static final int SLICE = 256;
    /**
     * Thread-instructions a warp may run after its last failed wait and still count as polling:
     * a whole turn of a full warp under the fixed schedule.
     */
    private static final long POLL_WINDOW = SLICE * 32L;
    /** How far the clock jumps in a stall: 2^32 instructions, over an hour of %globaltimer nanoseconds. */
    private static final long STALL_CLOCK_JUMP = 1L << 32;

    private final Engine engine;
    private final KernelLaunch launch;
    /** Seeded schedule choices (the engine's), or null for the deterministic schedule. */
    private final RandomSchedule schedule;
    /** Warp turns for --trace, or null. */
    private final Trace trace;
    final StopReports reports;
    /** Warps that loop without effect; see {@link #loopsForever}. */
    private final SpinDetector spins = new SpinDetector();
    /**
     * The warps at each stall, compared as {@link #spins} compares rounds: a stall is a deadlock
     * only once every warp is back in the state of an earlier stall with no progress event between.
     */
    private final SpinDetector stalls = new SpinDetector();
    private final long maxInstructions;
    /**
     * Thread-instructions run by all workers, as each counts them in (at the end of each cluster,
     * and with several workers of each round): the budget is the launch's.
     */
    private final AtomicLong budgetSpent;
    /** This worker's instruction count when it last counted it into {@link #budgetSpent}. */
    private long counted;
    /** System.nanoTime() at which the wall-clock budget runs out; 0: no budget. */
    private long wallDeadline;
    /** Clusters not finished yet, over all workers, and how many workers there are. */
    private AtomicInteger clustersLeft = new AtomicInteger();
    private int workerCount = 1;
    /** The engine's instruction count when the cluster in flight started. */
    private long ctaStart;
    /** Every warp of the cluster in flight, for the stall checks. */
    private Warp[] clusterWarps = new Warp[0];
    /** The virtual clock while stalled (else -1), and its offset from the instruction count after stalls. */
    private long clockFrozenAt = -1, clockShift;

    /** The scheduler of the launch's first worker. */
    Scheduler(Engine engine, KernelLaunch launch, RandomSchedule schedule) {
        this(engine, launch, schedule, new AtomicLong());
    }

    /** Another worker's scheduler: shares the budget and the wall-clock deadline with the first's. */
    Scheduler(Engine engine, RandomSchedule schedule, Scheduler first) {
        this(engine, first.launch, schedule, first.budgetSpent);
        this.wallDeadline = first.wallDeadline;
    }

    private Scheduler(Engine engine, KernelLaunch launch, RandomSchedule schedule, AtomicLong budgetSpent) {
        this.engine = engine;
        this.launch = launch;
        this.schedule = schedule;
        this.budgetSpent = budgetSpent;
        this.maxInstructions = launch.limits().maxInstructions();
        this.trace = launch.limits().trace();
        this.reports = new StopReports(engine, launch);
        launch.limits().progress().register(this);
    }

    /**
     * Sets when the wall-clock budget runs out (System.nanoTime(), odd; 0: never), before the other
     * workers' schedulers are made.
     */
    void startWallClock(long deadline) {
        wallDeadline = deadline;
    }

    /** The clusters not finished yet, counted by all workers together, and how many workers there are. */
    void shareGrid(AtomicInteger left, int workers) {
        clustersLeft = left;
        workerCount = workers;
    }

    /**
     * Runs the cluster with that index in grid order of clusters (x fastest, then y, then z); with
     * clusters of one CTA, the CTA with that index.
     */
    void runCluster(int index) {
        int[] g = launch.grid();
        int[] cl = launch.cluster();
        int ncx = g[0] / cl[0], ncy = g[1] / cl[1];
        int[] base = {index % ncx * cl[0], (index / ncx) % ncy * cl[1], index / (ncx * ncy) * cl[2]};
        int clusterSize = engine.clusterSize = cl[0] * cl[1] * cl[2];
        if (engine.cluster.length < clusterSize) {
            engine.cluster = new Cta[clusterSize];
            for (int r = 0; r < clusterSize; r++) {
                engine.cluster[r] = new Cta(engine, r, engine.hazards, engine.sync);
            }
        }
        for (int r = 0; r < clusterSize; r++) {
            Cta c = engine.cluster[r];
            c.ctaid[0] = base[0] + r % cl[0];
            c.ctaid[1] = base[1] + (r / cl[0]) % cl[1];
            c.ctaid[2] = base[2] + r / (cl[0] * cl[1]);
        }
        ctaStart = engine.executed;
        clockFrozenAt = -1;
        clockShift = 0;
        shareBudget();
        if (engine.order != null) {
            engine.order.startCluster(index);
        }
        if (schedule != null) {
            schedule.startCta(index);
        }
        try {
            interleave(engine.entry);
            launch.limits().progress().clusterDone();
        } finally {
            clustersLeft.decrementAndGet();
            budgetSpent.addAndGet(engine.executed - counted);
            counted = engine.executed;
            engine.calls.releaseStacks();
        }
    }

    /**
     * Counts what this worker ran since it last did into the launch's count, and gives the cluster
     * in flight what is left of the budget. On one worker that is exactly the budget less what the
     * clusters before it in grid order ran. Several workers run clusters ahead of their turn, and
     * each gives its cluster what all of them have left (so together they stop soon after the
     * budget is spent); {@link Grid} keeps their result only if all of them together stayed within
     * the budget, as one worker would have.
     */
    private void shareBudget() {
        long spent = engine.executed == counted ? budgetSpent.get() : budgetSpent.addAndGet(engine.executed - counted);
        counted = engine.executed;
        engine.ctaLimit = engine.executed + Math.max(0, maxInstructions - spent);
    }

    private void startCta(Cta c, Decoder.FuncInfo entry) {
        int[] b = launch.block();
        int threads = b[0] * b[1] * b[2];
        c.shared = new byte[(int) (engine.program.sharedStatic + launch.sharedBytes())];
        int nw = (threads + 31) / 32;
        Warp[] previous = c.warps;
        Warp[] warps = new Warp[nw];
        c.warps = warps;
        c.liveThreads = threads;
        c.clusterArrival = new int[nw * 32];
        java.util.Arrays.fill(c.clusterArrival, -1);
        c.barriers.startCta(nw);
        c.warpgroups.startCta(nw);
        c.copies.startCta(nw * 32);
        if (engine.order != null) {
            c.peerAccesses.start(engine.order.slotsPerCluster());
        }
        for (int w = 0; w < nw; w++) {
            Warp warp = new Warp(w, entry.numRegs, previous != null && w < previous.length ? previous[w].regs : null);
            for (int l = 0; l < 32; l++) {
                int t = w * 32 + l;
                if (t >= threads) {
                    break;
                }
                warp.live |= 1 << l;
                warp.tidX[l] = t % b[0];
                warp.tidY[l] = (t / b[0]) % b[1];
                warp.tidZ[l] = t / (b[0] * b[1]);
                warp.pc[l] = entry.entryPc;
                warp.ensureLocal(l, entry.frameBytes);
            }
            warps[w] = warp;
        }
    }

    /** Lands every pending copy of the cluster's CTAs; false when none was pending. */
    private boolean landForStall() {
        boolean any = false;
        for (int r = 0; r < engine.clusterSize; r++) {
            engine.cta = engine.cluster[r];
            any |= engine.cta.copies.landForStall();
        }
        return any;
    }

    /** Runs the cluster's CTAs to the end, their warps taking turns, CTA after CTA in rank order. */
    private void interleave(Decoder.FuncInfo entry) {
        Cta[] cluster = engine.cluster;
        int clusterSize = engine.clusterSize;
        int nw = 0;
        for (int r = 0; r < clusterSize; r++) {
            startCta(cluster[r], entry);
            nw += cluster[r].warps.length;
        }
        engine.clusterBarrier.startCluster(cluster, clusterSize, engine);
        spins.reset();
        stalls.reset();
        clusterWarps = new Warp[nw];
        nw = 0;
        for (int r = 0; r < clusterSize; r++) {
            for (Warp w : cluster[r].warps) {
                clusterWarps[nw++] = w;
            }
        }
        Op[] ops = engine.program.ops;
        // The event count at the last stall: the stalls compared must have none between them.
        long stalledEvents = -1;
        while (true) {
            if (wallDeadline != 0 && System.nanoTime() - wallDeadline > 0) {
                throw reports.wallTimeExhausted(budgetSpent.get() + engine.executed - counted);
            }
            if (workerCount > 1) {
                shareBudget();
            }
            long eventsBefore = engine.events;
            boolean anyLive = false;
            boolean onlyPolled = true;
            for (int r = 0; r < clusterSize; r++) {
                Cta cta = engine.cta = cluster[r];
                Warp[] warps = cta.warps;
                for (int k = 0; k < warps.length; k++) {
                    Warp w = warps[schedule == null ? k : schedule.warpAt(k, warps.length)];
                    int slice = schedule == null ? SLICE : schedule.sliceLength(SLICE);
                    boolean ran = false;
                    long turnStart = engine.executed;
                    int runnable = trace == null ? 0 : w.live & ~w.blocked;
                    int turnPc = runnable == 0 ? -1 : w.pc[Integer.numberOfTrailingZeros(runnable)];
                    for (int s = 0, n; s < slice && (n = engine.step(w, slice - s)) > 0; s += n) {
                        ran = true;
                    }
                    if (turnPc >= 0 && ran) {
                        trace.turn(cta.ctaid, w.id, turnStart - ctaStart, engine.executed - ctaStart, ops[turnPc]);
                    }
                    w.sincePoll = w.polledAt >= turnStart ? engine.executed - w.polledAt
                            : w.sincePoll + (engine.executed - turnStart);
                    // The warp only polled if its lanes that ran came back to a wait that fails
                    // within the last turn's worth of instructions (a seeded schedule's turns may
                    // end anywhere in the loop) and, under a seeded schedule (which may run any
                    // group of a diverged warp next), every runnable lane polls: one the schedule
                    // merely passed over may go on.
                    onlyPolled &= !ran || (w.polledAt >= 0 && w.sincePoll <= POLL_WINDOW
                            && (schedule == null || (w.live & ~w.blocked & ~w.spinning) == 0));
                    anyLive |= w.live != 0;
                    cta.copies.randomTick();
                }
            }
            if (!anyLive) {
                landForStall();
                return;
            }
            if (engine.events != eventsBefore) {
                spins.reset();
                thawClock();
                continue;
            }
            if (onlyPolled) {
                spins.reset();
            } else {
                if (!loopsForever()) {
                    thawClock();
                }
                continue;
            }
            // No thread can progress by itself. What may still happen, in order: pending copies
            // land (their last legal moment), then suspended try_waits reach their time limit and
            // the polling loops go round once more. Only when the warps come back to the state of
            // an earlier stall (registers, predicates, program counters and wait masks, not even a
            // loop counter changed) with no event between is the cluster at a fixed point: a
            // bounded polling loop counts its tries, so it never repeats, and ends.
            if (landForStall()) {
                continue;
            }
            if (stalledEvents != engine.events) {
                stalls.reset(); // memory changed since the stalls compared so far
                stalledEvents = engine.events;
            }
            if (stalls.repeats(clusterWarps)) {
                throw reports.deadlock();
            }
            freezeClock();
            wakeTimedOutWaiters();
        }
    }

    /**
     * After a round in which warps ran without a progress event: stops the run when they loop
     * forever (a spin on memory that nothing will write), and says whether the round landed
     * pending copies instead. Under a seeded schedule too: each warp with runnable lanes runs at
     * least one step a round, all lanes at one program counter together, and a saved state has
     * each warp's runnable lanes at one instruction, so a state that comes back has every lane
     * back in its own state after running; with memory unchanged, each lane's path is fixed, and
     * no interleaving leaves the circle. Only while no other cluster can write: every other
     * cluster has finished, or this worker is the only one (the clusters left have not started).
     */
    private boolean loopsForever() {
        boolean alone = clustersLeft.get() == 1;
        if (!(alone || workerCount == 1)) {
            spins.reset();
            return false;
        }
        if (!spins.repeats(clusterWarps)) {
            return false;
        }
        for (Warp w : clusterWarps) {
            for (int m = w.blocked & w.live; m != 0; m &= m - 1) {
                if (w.waitKind[Integer.numberOfTrailingZeros(m)] == Warp.WAIT_MBARRIER) {
                    return false; // a suspended try_wait still has its time limit to reach
                }
            }
        }
        if (landForStall()) {
            spins.reset();
            return true;
        }
        throw reports.spinForever(alone, clustersLeft.get() - 1, workerCount);
    }

    /**
     * The cluster's virtual time in thread-instructions (%clock, %globaltimer): it runs with the
     * instructions executed, except in a stall. Then it jumps far ahead once (so a wait bounded by
     * time, such as the back-off of cuda::barrier::wait, sees its limit pass) and stands still
     * until some warp does more than poll: the polling loops then reach a fixed point, and a
     * kernel hung in such a wait is a deadlock after a few rounds, not a timeout.
     */
    long clock() {
        return clockFrozenAt >= 0 ? clockFrozenAt : engine.executed - ctaStart + clockShift;
    }

    private void freezeClock() {
        if (clockFrozenAt < 0) {
            clockFrozenAt = clock() + STALL_CLOCK_JUMP;
        }
    }

    private void thawClock() {
        if (clockFrozenAt >= 0) {
            clockShift = clockFrozenAt - (engine.executed - ctaStart);
            clockFrozenAt = -1;
        }
    }

    /** Ends the suspension of every try_wait in a stall: it returns false, as at its time limit. */
    private void wakeTimedOutWaiters() {
        for (Warp w : clusterWarps) {
            for (int m = w.blocked & w.live; m != 0; m &= m - 1) {
                int l = Integer.numberOfTrailingZeros(m);
                if (w.waitKind[l] == Warp.WAIT_MBARRIER) {
                    w.blocked &= ~(1 << l);
                    w.timedOut |= 1 << l;
                }
            }
        }
    }

    /** The report of a run out of instruction budget, at the op the warp could not pay for. */
    Engine.Stop budgetExhausted(Warp w, Op at, int l) {
        return reports.budgetExhausted(w, at, l, maxInstructions);
    }
}
