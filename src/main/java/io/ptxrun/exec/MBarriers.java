package io.ptxrun.exec;

import io.ptxrun.ast.Opcode;

/**
 * mbarrier objects (PTX ISA 9.7.13.15). An object is the 8 bytes of shared memory at its
 * (8-aligned) address, so a plain ld of it reads the state below; the encoding is the engine's
 * own (the hardware's is undocumented):
 *
 * <pre>
 *   bit 63      valid (set by init, cleared by inval; zeroed shared memory is "uninitialized")
 *   bits 61-62  current phase, modulo 4 (enough to tell the current, preceding and older phases)
 *   bits 40-60  tx-count, 21-bit two's complement: 9.7.13.15.2 allows [-(2^20-1), 2^20-1]
 *   bits 20-39  expected arrival count, [0, 2^20-1]
 *   bits 0-19   pending arrival count, [0, 2^20-1]
 * </pre>
 *
 * The state an arrive returns holds the phase it arrived on and the pending count before the
 * arrive (what the H100 reports through pending_count), marked so that pending_count and
 * test_wait can check where a state came from.
 */
final class MBarriers {
    /**
     * A decoded mbarrier instruction: which one (mbarrier.* or cp.async.mbarrier.arrive), .noComplete
     * (arrive, arrive_drop), .noinc (cp.async.mbarrier.arrive), .parity (test_wait, try_wait) and
     * .expect_tx (arrive, arrive_drop); .relaxed (arrive, complete_tx, test_wait, try_wait): no
     * release or acquire.
     */
    record Form(Opcode kind, boolean noComplete, boolean noinc, boolean parity, boolean expectTx,
                boolean relaxed) implements OpForm {}

    static final int MAX_COUNT = (1 << 20) - 1;

    private static final long VALID = 1L << 63;
    private static final long COUNT_MASK = (1L << 20) - 1;
    private static final int EXPECTED_SHIFT = 20, TX_SHIFT = 40, PHASE_SHIFT = 61;

    /** State tokens: bit 35 marks .noComplete, bit 34 marks a token at all, bits 32-33 the phase. */
    private static final long TOKEN = 1L << 34, TOKEN_NO_COMPLETE = 1L << 35;

    private final Engine engine;
    /** The CTA whose shared memory holds these objects (a peer may arrive on them remotely). */
    private final Cta cta;
    private final Hazards hazards;

    MBarriers(Engine engine, Cta cta, Hazards hazards) {
        this.engine = engine;
        this.cta = cta;
        this.hazards = hazards;
    }

    static int pending(long s) {
        return (int) (s & COUNT_MASK);
    }

    static int expected(long s) {
        return (int) ((s >>> EXPECTED_SHIFT) & COUNT_MASK);
    }

    static int tx(long s) {
        return (int) ((s << 3) >> 43);
    }

    static int phase(long s) {
        return (int) ((s >>> PHASE_SHIFT) & 3);
    }

    static long encode(int phase, int pending, int expected, int tx) {
        return VALID | ((long) (phase & 3) << PHASE_SHIFT) | ((tx & 0x1fffffL) << TX_SHIFT)
                | ((expected & COUNT_MASK) << EXPECTED_SHIFT) | (pending & COUNT_MASK);
    }

    /** One mbarrier instruction for the group {@code mask}; try_wait may suspend lanes. */
    void execute(Warp w, Op op, int pc, int mask, int exec) {
        Form form = (Form) op.form;
        Opcode kind = form.kind();
        boolean expectTx = form.expectTx();
        int suspended = 0;
        for (int m = exec; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            if (lane(w, op, pc, kind, expectTx, l)) {
                suspended |= 1 << l;
            }
        }
        engine.advance(w, mask & ~suspended, pc + 1);
    }

    /** Returns true when the lane suspends in try_wait. */
    private boolean lane(Warp w, Op op, int pc, Opcode kind, boolean expectTx, int l) {
        if (kind == Opcode.MBARRIER_PENDING_COUNT) {
            long token = engine.operands.read(w, op, 0, l);
            if ((token & TOKEN_NO_COMPLETE) == 0) {
                hazards.undefined(op, pc, "exec.mbarrier", "the state operand of mbarrier.pending_count was not"
                        + " produced by mbarrier.arrive.noComplete or arrive_drop.noComplete (9.7.13.15.17)",
                        engine.where(w, l));
            }
            engine.operands.write(w, op, 0, l, token & COUNT_MASK);
            return false;
        }
        long at = object(w, op, pc, l);
        Cta owner = engine.memory.sharedOwner(at);
        if (owner != cta) {
            // A remote arrive / expect_tx / complete_tx (.shared::cluster): the peer's object changes,
            // an access of its shared memory that must happen before it exits.
            if (engine.order != null) {
                int t = engine.ordering.slot(w, l);
                owner.peerAccesses.recordMbarrier((int) Cta.offsetOf(at), t, engine.order.counter(t), pc);
            }
            return owner.mbarriers.on(w, op, pc, kind, expectTx, l, (int) Cta.offsetOf(at));
        }
        return on(w, op, pc, kind, expectTx, l, (int) Cta.offsetOf(at));
    }

    /** The lane's operation on this CTA's object at shared offset {@code a}. */
    private boolean on(Warp w, Op op, int pc, Opcode kind, boolean expectTx, int l, int a) {
        long s = Bytes.get(cta.shared, a, 8);
        if (kind == Opcode.MBARRIER_INIT) {
            long count = Bits.zx(engine.operands.read(w, op, 0, l), 32);
            if ((s & VALID) != 0) {
                hazards.undefined(op, pc, "exec.mbarrier", "mbarrier.init on a valid mbarrier object at shared 0x"
                        + Integer.toHexString(a) + " (9.7.13.15.9: invalidate it first)", engine.where(w, l));
            }
            if (count < 1 || count > MAX_COUNT) {
                hazards.undefined(op, pc, "exec.mbarrier", "mbarrier.init count " + count + " outside [1, 2^20-1]"
                        + " (9.7.13.15.2)", engine.where(w, l));
                count = Math.max(1, Math.min(MAX_COUNT, count));
            }
            store(a, encode(0, (int) count, (int) count, 0));
            if (engine.order != null) {
                engine.order.mbarrierInit(cta.rank, a);
                cta.peerAccesses.mbarrierInit(a);
                engine.order.mark(engine.ordering.slot(w, l), pc, cta.rank, a, 8);
            }
            return false;
        }
        if ((s & VALID) == 0) {
            hazards.undefined(op, pc, "exec.mbarrier", "'" + op.mnemonic() + "' on shared 0x" + Integer.toHexString(a)
                    + ", which holds no valid mbarrier object (uninitialized or invalidated; 9.7.13.15)",
                    engine.where(w, l));
            s = encode(0, 1, 1, 0);
        }
        int phase = phase(s), pending = pending(s), expected = expected(s), tx = tx(s);
        switch (kind) {
            case MBARRIER_INVAL -> store(a, 0);
            case MBARRIER_EXPECT_TX, MBARRIER_COMPLETE_TX -> {
                long bytes = Bits.zx(engine.operands.read(w, op, 0, l), 32);
                if (kind == Opcode.MBARRIER_COMPLETE_TX && engine.order != null) {
                    engine.order.mbarrierArrive(engine.ordering.slot(w, l), cta.rank, a, ((Form) op.form).relaxed());
                }
                changeTx(op, pc, w, l, a, kind == Opcode.MBARRIER_EXPECT_TX ? bytes : -bytes);
            }
            case MBARRIER_ARRIVE, MBARRIER_ARRIVE_DROP -> {
                boolean noComplete = ((Form) op.form).noComplete();
                long count = 1;
                if (expectTx) {
                    changeTx(op, pc, w, l, a, op.sources() > 0 ? Bits.zx(engine.operands.read(w, op, 0, l), 32) : 0);
                } else if (op.sources() > 0) {
                    count = Bits.zx(engine.operands.read(w, op, 0, l), 32);
                }
                s = Bytes.get(cta.shared, a, 8);
                long token = TOKEN | ((long) phase << 32) | pending(s) | (noComplete ? TOKEN_NO_COMPLETE : 0);
                if (engine.order != null) {
                    engine.order.mbarrierArrive(engine.ordering.slot(w, l), cta.rank, a, ((Form) op.form).relaxed());
                }
                arrive(op, pc, w, l, a, count, kind == Opcode.MBARRIER_ARRIVE_DROP, noComplete);
                if (op.dst.length > 0) {
                    engine.operands.write(w, op, 0, l, token);
                }
            }
            case CP_ASYNC_MBARRIER_ARRIVE -> {
                if (!((Form) op.form).noinc()) {
                    // The increment happens now; the matching arrive once this thread's copies land.
                    if (pending + 1 > MAX_COUNT) {
                        hazards.undefined(op, pc, "exec.mbarrier", "cp.async.mbarrier.arrive raises the pending"
                                + " count beyond 2^20-1 (9.7.13.15.2)", engine.where(w, l));
                    }
                    store(a, encode(phase, pending + 1, expected, tx));
                }
                engine.cta().copies.enqueueArrive(w, l, pc, cta, a);
            }
            case MBARRIER_TEST_WAIT, MBARRIER_TRY_WAIT -> {
                long v = engine.operands.read(w, op, 0, l);
                boolean done;
                if (((Form) op.form).parity()) {
                    // The phase of that parity is the current one (incomplete) or the preceding one (complete).
                    done = (phase & 1) != (v & 1);
                } else {
                    int age = (phase - (int) (v >>> 32)) & 3;
                    if (age > 1 || (v & TOKEN) == 0) {
                        hazards.undefined(op, pc, "exec.mbarrier", "the state operand of '" + op.mnemonic()
                                + "' is not from the current or the immediately preceding phase (9.7.13.15.16)",
                                engine.where(w, l));
                    }
                    done = age != 0;
                }
                int bit = 1 << l;
                // Back at a wait that returned false for this lane, with no success since: the lane
                // polls in a loop. (A thread that tested once and went on waits for nothing: a
                // round in which it was merely not run is no stall.)
                boolean again = w.failedAt[l] == pc;
                if (!done && kind == Opcode.MBARRIER_TRY_WAIT && (w.timedOut & bit) == 0) {
                    // Suspend until the phase completes or the time limit (no other thread can run).
                    w.blocked |= bit;
                    w.waitKind[l] = Warp.WAIT_MBARRIER;
                    w.waitAddr[l] = a;
                    w.blockedAt[l] = pc;
                    if (again) {
                        w.spinning |= bit;
                        w.polledAt = engine.executed;
                    }
                    return true;
                }
                w.timedOut &= ~bit;
                if (done) {
                    w.spinning &= ~bit;
                    w.failedAt[l] = -1;
                    if (engine.order != null) {
                        engine.order.mbarrierWaited(engine.ordering.slot(w, l), cta.rank, a, ((Form) op.form).relaxed());
                        if (engine.cta() == cta) {
                            cta.peerAccesses.phaseSeen(a);
                        }
                    }
                } else {
                    // A failed test; the deadlock check needs to know where.
                    w.failedAt[l] = pc;
                    w.waitAddr[l] = a;
                    w.blockedAt[l] = pc;
                    if (again) {
                        w.spinning |= bit;
                        w.polledAt = engine.executed;
                    } else {
                        w.spinning &= ~bit;
                    }
                }
                engine.operands.write(w, op, 0, l, done ? 1 : 0);
            }
            default -> throw Engine.Stop.unsupported(op, "");
        }
        return false;
    }

    /**
     * The shared::cluster address of the lane's mbarrier object (an own offset or a peer's
     * mapped address); misalignment and other spaces are reported.
     */
    private long object(Warp w, Op op, int pc, int l) {
        long a = engine.memory.address(w, op, l);
        Space space = op.mem.space();
        if (space == Space.GENERIC) {
            space = Space.ofGeneric(a);
            a -= space.window;
        }
        long offset = Cta.offsetOf(a);
        if (space != Space.SHARED || a < 0 || offset + 8 > cta.shared.length) {
            throw new MemoryFault(String.format("mbarrier object at 0x%x is not in shared memory", a));
        }
        if ((a & 7) != 0) {
            hazards.undefined(op, pc, "exec.mbarrier", String.format("mbarrier object at shared 0x%x is not 8-byte"
                    + " aligned (9.7.13.15.1)", a), engine.where(w, l));
            a &= ~7L;
        }
        return a;
    }

    private void store(int a, long s) {
        Bytes.put(cta.shared, a, 8, s);
        engine.progressed();
    }

    /** expect-tx (positive) or complete-tx (negative) on the object at {@code a}; may complete the phase. */
    private final java.util.Map<Integer, Integer> expectTxAt = new java.util.HashMap<>();

    void changeTx(Op op, int pc, Warp w, int l, int a, long delta) {
        if (delta > 0) {
            expectTxAt.put(a, pc);
        }
        long s = Bytes.get(cta.shared, a, 8);
        long tx = tx(s) + delta;
        if (tx > MAX_COUNT || tx < -MAX_COUNT) {
            hazards.undefined(op, pc, "exec.mbarrier", "tx-count " + tx + " outside [-(2^20-1), 2^20-1]"
                    + " (9.7.13.15.2)", engine.where(w, l));
            tx = Math.max(-MAX_COUNT, Math.min(MAX_COUNT, tx));
        }
        settle(a, phase(s), pending(s), expected(s), (int) tx);
    }

    /** An arrive-on of {@code count}; drop also lowers the expected count of later phases. */
    void arrive(Op op, int pc, Warp w, int l, int a, long count, boolean drop, boolean noComplete) {
        long s = Bytes.get(cta.shared, a, 8);
        int pending = pending(s), expected = expected(s);
        if (count < 1 || count > MAX_COUNT) {
            hazards.undefined(op, pc, "exec.mbarrier", "arrive count " + count + " outside [1, 2^20-1]"
                    + " (9.7.13.15.2)", engine.where(w, l));
            count = Math.max(1, Math.min(MAX_COUNT, count));
        }
        if (count > pending) {
            hazards.undefined(op, pc, "exec.mbarrier", "arrive with count " + count + " when " + pending
                    + " arrival(s) are pending takes the pending count below 0 (9.7.13.15.2, 9.7.13.15.7)",
                    engine.where(w, l));
            count = pending;
        }
        pending -= (int) count;
        if (drop) {
            expected = Math.max(0, expected - (int) count);
        }
        if (noComplete && pending == 0 && tx(s) == 0) {
            hazards.undefined(op, pc, "exec.mbarrier", "'" + op.mnemonic() + "' completes the current phase"
                    + " (9.7.13.15.13: .noComplete must not)", engine.where(w, l));
        }
        settle(a, phase(s), pending, expected, tx(s));
    }

    /** Stores the state; with no arrivals and no transactions pending the phase completes. */
    private void settle(int a, int phase, int pending, int expected, int tx) {
        if (pending == 0 && tx == 0) {
            if (engine.order != null) {
                engine.order.mbarrierPhaseComplete(cta.rank, a);
                cta.peerAccesses.phaseCompleted(a);
            }
            store(a, encode(phase + 1, expected, expected, 0));
            cta.wakeMBarrierWaiters(a);
        } else {
            store(a, encode(phase, pending, expected, tx));
        }
    }

    /** The current phase (mod 4) of the object at {@code a}. */
    int phaseOf(int a) {
        return phase(Bytes.get(cta.shared, a, 8));
    }

    /** Where the last expect-tx on the object at {@code a} was, for reports. */
    String lastExpectTx(int a) {
        Integer pc = expectTxAt.get(a);
        if (pc == null) {
            return "no expect-tx on it was seen";
        }
        Op op = engine.opAt(pc);
        return "the expect-tx of '" + op.mnemonic() + "' at " + op.pos + " by the issuing thread is short of the bytes";
    }

    /** The object's state for a deadlock report. */
    String describe(int a) {
        long s = Bytes.get(cta.shared, a, 8);
        if ((s & VALID) == 0) {
            return String.format("mbarrier at shared 0x%x: not a valid mbarrier object", a);
        }
        return String.format("mbarrier at shared 0x%x: phase %d (mod 4), %d of %d arrivals pending, tx-count %d",
                a, phase(s), pending(s), expected(s), tx(s));
    }
}
