package io.ptxrun.exec;

/**
 * How an instruction reaches memory, decoded once by {@link Decoder}: the state space as the
 * engine sees it ({@link Space}), the address (a register plus an offset, an absolute address,
 * or a slot of the thread's frame), the vector width, and the memory order. Instructions that
 * only name a space (cvta, isspacep, mapa, getctarank) carry an access without an address; a
 * second address of an instruction (a copy's source, its mbarrier) is an access of its own in the
 * family's form.
 *
 * @param space        {@code Space.GENERIC}, {@code Space.GLOBAL}, ...
 * @param addressKind  {@link #REGISTER}, {@link #ABSOLUTE}, {@link #FRAME} or {@link #FRAME_GENERIC}
 * @param register     the base register (REGISTER), else -1
 * @param offset       added to the base; the whole address when ABSOLUTE
 * @param vector       elements of a .v2/.v4 access, else 1
 * @param strong       .relaxed, .acquire, .release, .acq_rel, .volatile, .mmio ld/st, and every
 *                     atom/red: strong accesses never race with each other
 * @param acquire      orders the thread's later accesses after this one
 * @param release      orders the thread's earlier accesses before this one
 * @param callFrame    ld/st.param of a function's parameters or a call's arguments and results:
 *                     the call mechanism fills these, so the thread's reads of bytes it never
 *                     wrote there are no uninitialized reads
 * @param scope        a strong access's scope ({@link io.ptxrun.exec.order.Scopes}), or a
 *                     fence's; {@code Scopes.GPU} when none is given
 */
record MemoryAccess(Space space, int addressKind, int register, long offset, int vector,
                    boolean strong, boolean acquire, boolean release, boolean callFrame, int scope) {
    /** Address kinds: a register plus offset, an absolute address, a slot of the frame (in .local or generic). */
    static final int REGISTER = 0, ABSOLUTE = 1, FRAME = 2, FRAME_GENERIC = 3;

    /** The access of an instruction that has none: generic, no address, weak. */
    static final MemoryAccess NONE = inSpace(Space.GENERIC);

    /** An instruction that names a space but no address. */
    static MemoryAccess inSpace(Space space) {
        return new MemoryAccess(space, REGISTER, -1, 0, 1, false, false, false, false, 0);
    }

    static MemoryAccess at(Space space, int addressKind, int register, long offset) {
        return new MemoryAccess(space, addressKind, register, offset, 1, false, false, false, false, 0);
    }

    MemoryAccess withVector(int elements) {
        return new MemoryAccess(space, addressKind, register, offset, elements, strong, acquire, release, callFrame,
                scope);
    }

    MemoryAccess withOrder(boolean strong, boolean acquire, boolean release, int scope) {
        return new MemoryAccess(space, addressKind, register, offset, vector, strong, acquire, release, callFrame,
                scope);
    }

    /** This access as one of a call's frame (see callFrame). */
    MemoryAccess inCallFrame() {
        return new MemoryAccess(space, addressKind, register, offset, vector, strong, acquire, release, true, scope);
    }

    /** The address bits that must be clear in an access of {@code size}-byte elements (the whole vector's alignment). */
    long misalignedBits(int size) {
        return (size - 1) | (vector > 1 ? size * (long) vector - 1 : 0);
    }
}
