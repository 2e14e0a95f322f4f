package io.ptxrun.exec;

import io.ptxrun.ast.DataType;

import static io.ptxrun.exec.Bits.zx;

/**
 * The state spaces as the lanes of the warp running now reach them, by space and address:
 * global memory (shared by all workers), the running CTA's shared memory and its peers' in the
 * cluster (shared::cluster addresses), each lane's local frames, the constant bank and the
 * kernel's parameters. Every access is checked for alignment and bounds; a generic address is
 * resolved to its space by its window ({@link Space#ofGeneric}).
 */
final class LaneMemory {
    private final Engine engine;
    private final GlobalMemory global;
    private final byte[] params;
    private final byte[] constBank;

    LaneMemory(Engine engine, GlobalMemory global, byte[] params, byte[] constBank) {
        this.engine = engine;
        this.global = global;
        this.params = params;
        this.constBank = constBank;
    }

    private byte[] bytesOf(Warp w, Space space, int l) {
        return switch (space) {
            case SHARED -> engine.cta().shared;
            case LOCAL -> w.local[l];
            case CONST -> constBank;
            default -> params;
        };
    }

    private static void aligned(Space space, long a, int size) {
        if ((a & (size - 1)) != 0) {
            throw new MemoryFault(String.format("misaligned %d-byte %s access at 0x%x", size, space.spelling, a));
        }
    }

    /** The lane's memory of the space (not global, not a peer's), which must hold the access. */
    private byte[] holding(Warp w, Space space, long a, int size, int l) {
        byte[] mem = bytesOf(w, space, l);
        if (a < 0 || a + size > mem.length) {
            throw new MemoryFault(String.format("%s access of %d bytes at 0x%x is outside the %d-byte %s space",
                    space.spelling, size, a, mem.length, space.spelling));
        }
        return mem;
    }

    long load(Warp w, Space space, long a, int size, int l) {
        aligned(space, a, size);
        if (space == Space.GENERIC) {
            space = Space.ofGeneric(a);
            a -= space.window;
        }
        if (space == Space.GLOBAL) {
            return global.load(a, size);
        }
        if (space == Space.SHARED && a >= Cta.DSMEM_SPAN) {
            return Bytes.get(peerShared(a, size), (int) Cta.offsetOf(a), size);
        }
        return Bytes.get(holding(w, space, a, size, l), (int) a, size);
    }

    void store(Warp w, Space space, long a, int size, long v, int l) {
        store(w, space, a, size, v, l, false);
    }

    /** A store; a strong one (see {@link MemoryAccess#strong}) to global memory is atomic with other CTAs' atomics. */
    void store(Warp w, Space space, long a, int size, long v, int l, boolean strong) {
        engine.progressed();
        aligned(space, a, size);
        if (space == Space.GENERIC) {
            space = Space.ofGeneric(a);
            a -= space.window;
        }
        if (space == Space.GLOBAL) {
            if (strong) {
                global.storeStrong(a, size, v);
            } else {
                global.store(a, size, v);
            }
            return;
        }
        if (space.readOnly()) {
            throw new MemoryFault(String.format("store to read-only %s space at 0x%x", space.spelling, a));
        }
        if (space == Space.SHARED && a >= Cta.DSMEM_SPAN) {
            Bytes.put(peerShared(a, size), (int) Cta.offsetOf(a), size, v);
            return;
        }
        byte[] mem = holding(w, space, a, size, l);
        Bytes.put(mem, (int) a, size, v);
        if (space == Space.LOCAL && engine.order != null) {
            w.localWritten(l).set((int) a, (int) a + size);
        }
    }

    /** Lane l's address of the op's access. */
    long address(Warp w, Op op, int l) {
        return address(w, op.mem, l);
    }

    /** Lane l's address of an access (in its space; a generic frame slot in the generic window). */
    long address(Warp w, MemoryAccess m, int l) {
        return switch (m.addressKind()) {
            case MemoryAccess.REGISTER -> w.regs[((w.regBase[l] + m.register()) << 5) | l] + m.offset();
            case MemoryAccess.ABSOLUTE -> m.offset();
            case MemoryAccess.FRAME -> w.localBase[l] + m.offset();
            default -> Space.LOCAL.window + w.localBase[l] + m.offset();
        };
    }

    /** ld: the lane's load of one value or a vector at its address, each value widened to its register. */
    void ld(Warp w, Op op, int l) {
        long a = address(w, op, l);
        DataType t = op.type;
        int size = t.bytes();
        vectorAligned(op, a, size);
        for (int k = 0; k < op.dst.length; k++) {
            engine.operands.write(w, op, k, l, Bits.loaded(load(w, op.mem.space(), a + (long) k * size, size, l), t, op.dstBits[k]));
        }
        if (engine.order != null) {
            engine.ordering.ordered(w, l, op, op.mem.space(), a, size * op.dst.length, true, false);
        }
    }

    /** st: the lane's store of one value or a vector at its address (a strong one releases first). */
    void st(Warp w, Op op, int l) {
        long a = address(w, op, l);
        int size = op.type.bytes();
        if (engine.order != null && op.mem.strong()) {
            engine.ordering.releasing(w, l, op.mem.space(), a, op.mem.release(), op.mem.scope());
        }
        vectorAligned(op, a, size);
        for (int k = 0; k < op.sources(); k++) {
            store(w, op.mem.space(), a + (long) k * size, size, engine.operands.read(w, op, k, l), l, op.mem.strong());
        }
        if (engine.order != null) {
            engine.ordering.ordered(w, l, op, op.mem.space(), a, size * op.sources(), false, true);
        }
    }

    /** A vector access is aligned to its whole size (each element's own alignment is checked as it goes). */
    private static void vectorAligned(Op op, long a, int size) {
        if (op.mem.vector() > 1 && (a & (size * op.mem.vector() - 1)) != 0) {
            throw new MemoryFault(String.format("misaligned %d-byte vector access at 0x%x", size * op.mem.vector(), a));
        }
    }

    /**
     * cvta, cvta.to, isspacep and getctarank of address a: between a space's addresses and the
     * generic window, whether a generic address lies in a space, which CTA of the cluster a shared
     * address belongs to.
     */
    long spaceOp(Op op, long a) {
        int bits = op.type == null ? 64 : op.type.bits;
        Space space = op.mem.space();
        return switch (op.code) {
            case CVTA -> zx(a + space.window, bits);
            case CVTA_TO -> zx(a - space.window, bits);
            case ISSPACEP -> {
                Space sp = Space.ofGeneric(a);
                // On H100 kernel parameters and constants are reachable through global addresses too.
                boolean in = sp == space || (space == Space.GLOBAL && (sp == Space.KPARAM || sp == Space.CONST));
                yield in ? 1 : 0;
            }
            default -> Cta.rankOf(sharedAddressOf(space, zx(a, bits)), engine.cta().rank);
        };
    }

    /** mapa: shared address a (generic or not, as the op's space says) in the CTA of the cluster's {@code rank}. */
    long mapa(Op op, long a, long rankOperand) {
        int bits = op.type == null ? 64 : op.type.bits;
        long rank = zx(rankOperand, 32);
        if (rank >= engine.clusterSize) {
            throw new MemoryFault("mapa to CTA rank " + rank + ", but the cluster has " + engine.clusterSize + " CTAs");
        }
        long shared = sharedAddressOf(op.mem.space(), zx(a, bits));
        long mapped = engine.cluster[(int) rank].clusterAddress(Cta.offsetOf(shared));
        return zx(op.mem.space() == Space.GENERIC ? Space.SHARED.window + mapped : mapped, bits);
    }

    /**
     * The CTA a shared::cluster address belongs to. Its shared memory lives only as long as the
     * CTA: an access after it exited is undefined (the hardware fails the launch).
     */
    Cta sharedOwner(long sharedAddress) {
        int rank = Cta.rankOf(sharedAddress, engine.cta().rank);
        if (rank < 0 || rank >= engine.clusterSize) {
            throw new MemoryFault(String.format("shared::cluster address 0x%x names CTA rank %d, but the cluster"
                    + " has %d CTAs", sharedAddress, rank, engine.clusterSize));
        }
        Cta owner = engine.cluster[rank];
        if (owner.exited() && owner != engine.cta()) {
            throw new MemoryFault(String.format("undefined behaviour: shared::cluster access at 0x%x to the shared"
                    + " memory of CTA rank %d of the cluster, which has exited (a CTA's shared memory exists only"
                    + " while it runs; distributed shared memory accesses must complete before the owner exits)",
                    sharedAddress, rank));
        }
        return owner;
    }

    /**
     * The tensor map at generic address {@code a}: a 64-byte aligned object in the kernel's
     * parameters, constant or global memory (9.7.9.25.5.2).
     */
    io.ptxrun.launch.TensorMap tensorMap(long a) {
        if ((a & 63) != 0) {
            throw new MemoryFault(String.format("misaligned tensor-map address 0x%x: the tensorMap operand is the"
                    + " generic address of a 64-byte aligned tensor map (cvta.param of a kernel parameter)", a));
        }
        Space space = Space.ofGeneric(a);
        long at = a - space.window;
        int n = io.ptxrun.launch.TensorMap.SIZE;
        byte[] bytes;
        if (space == Space.GLOBAL) {
            try {
                bytes = global.read(at, n);
            } catch (MemoryFault f) {
                if (a >= 0 && a < params.length) {
                    // mov of a kernel parameter gives its .param-space offset, not a generic address.
                    throw new MemoryFault(String.format("no tensor map at 0x%x, which is no generic address (the"
                            + " .param-space address of a kernel parameter? take its generic address with"
                            + " cvta.param; 9.7.9.25.5.2)", a));
                }
                throw f;
            }
        } else if (space == Space.KPARAM || space == Space.CONST) {
            byte[] mem = space == Space.KPARAM ? params : constBank;
            if (at < 0 || at + n > mem.length) {
                throw new MemoryFault(String.format("tensor map at 0x%x is outside the %s space", a, space.spelling));
            }
            bytes = java.util.Arrays.copyOfRange(mem, (int) at, (int) at + n);
        } else {
            throw new MemoryFault(String.format("tensor map at 0x%x is not in param, const or global memory", a));
        }
        try {
            return io.ptxrun.launch.TensorMap.decode(bytes);
        } catch (RuntimeException e) {
            throw new MemoryFault(String.format("no valid tensor map at 0x%x: %s", a, e.getMessage()));
        }
    }

    /** The shared memory that {@code size} bytes at shared::cluster address {@code a} lie in (checked). */
    private byte[] peerShared(long a, int size) {
        byte[] mem = sharedOwner(a).shared;
        long offset = Cta.offsetOf(a);
        if (offset + size > mem.length) {
            throw new MemoryFault(String.format("shared::cluster access of %d bytes at 0x%x is outside the %d-byte"
                    + " shared space of its CTA", size, a, mem.length));
        }
        return mem;
    }

    /** The shared::cluster address a shared-window address (generic or not, as {@code space} says) maps to. */
    static long sharedAddressOf(Space space, long a) {
        if (space == Space.GENERIC) {
            if (Space.ofGeneric(a) != Space.SHARED) {
                throw new MemoryFault(String.format("generic address 0x%x is not in the shared window", a));
            }
            return a - Space.SHARED.window;
        }
        return a;
    }
}
