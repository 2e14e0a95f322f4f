package io.ptxrun.exec;

import java.util.Set;

/**
 * The tensor-map instructions (PTX ISA 9.7.9.26 tensormap.replace and tensormap.cp_fenceproxy,
 * 9.7.13.4 fence.proxy.tensormap) on ptxrun's 128-byte tensor-map encoding, and the rule that a
 * tensor copy must not use a map in global memory written through the generic proxy until a
 * fence.proxy.tensormap::generic acquire makes it visible to the tensormap proxy.
 */
final class TensorMapEdits {
    /** tensormap.replace: the field replaced and, for the per-dimension fields, the dimension (ord). */
    record ReplaceForm(TensorMapField field, int ordinal) implements OpForm {}

    /** tensormap.cp_fenceproxy: the shared source address (an address op; the op's own is the global map). */
    record CopyForm(MemoryAccess source) implements OpForm {}

    private final Engine engine;
    private final Hazards hazards;
    /**
     * Global addresses of tensor maps written through the generic proxy (tensormap.replace on
     * global memory, tensormap.cp_fenceproxy) and not yet acquired; shared by all workers.
     */
    private final Set<Long> unfenced;

    TensorMapEdits(Engine engine, Hazards hazards, Set<Long> unfenced) {
        this.engine = engine;
        this.hazards = hazards;
        this.unfenced = unfenced;
    }

    Set<Long> unfenced() {
        return unfenced;
    }

    /**
     * tensormap.replace (9.7.9.26): rewrites one field of the 128-byte map at the address in place,
     * so a tensor copy that then uses the map sees the new value. On global memory the map then
     * needs a fence.proxy.tensormap::generic acquire before a tensor copy may use it.
     */
    void replace(Warp w, Op op, int pc, int mask, int exec) {
        ReplaceForm form = (ReplaceForm) op.form;
        TensorMapField field = form.field();
        for (int m = exec; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            long a = engine.memory.address(w, op, l);
            Space space = op.mem.space();
            long at = a;
            if (space == Space.GENERIC) {
                space = Space.ofGeneric(a);
                at = a - space.window;
            }
            if (space != Space.GLOBAL && space != Space.SHARED) {
                hazards.undefined(op, pc, "exec.tensormap", String.format("tensormap.replace address 0x%x is not in"
                        + " the .global or .shared::cta window (9.7.9.26)", a), engine.where(w, l));
                continue;
            }
            if ((at & 63) != 0) {
                hazards.undefined(op, pc, "exec.tensormap", String.format("tensormap.replace address 0x%x is not"
                        + " 64-byte aligned: a tensor map is a 64-byte aligned 1024-bit object", a),
                        engine.where(w, l));
                continue;
            }
            long value = engine.operands.read(w, op, 0, l);
            java.util.Optional<Long> bits = field.encode(value);
            if (bits.isEmpty()) {
                throw new MemoryFault("tensormap.replace" + field.spelling + " value " + value + " names an element"
                        + " type ptxrun's tensor maps do not execute (u8, u16, u32, s32, u64, s64, f32, f64 only)");
            }
            engine.memory.store(w, space, at + field.offset(form.ordinal()), field.bytes, bits.get(), l);
            if (space == Space.GLOBAL) {
                unfenced.add(at);
            }
        }
        engine.advance(w, mask, pc + 1);
    }

    /**
     * tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release: copies the 128-byte
     * map from shared to global memory and releases it to the tensormap proxy; a consumer still
     * acquires it before use.
     */
    void copy(Warp w, Op op, int pc, int mask, int exec) {
        MemoryAccess source = ((CopyForm) op.form).source();
        for (int m = exec; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            long to = engine.memory.address(w, op, l);
            long from = engine.memory.address(w, source, l);
            for (int k = 0; k < io.ptxrun.launch.TensorMap.SIZE; k += 8) {
                engine.memory.store(w, Space.GLOBAL, to + k, 8, engine.memory.load(w, Space.SHARED, from + k, 8, l), l);
            }
            unfenced.add(to);
        }
        engine.advance(w, mask, pc + 1);
    }

    /** fence.proxy.tensormap::generic.acquire [addr], size: tensor copies may now use the map at addr. */
    void acquire(Warp w, Op op, int pc, int mask, int exec) {
        for (int m = exec; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            long a = engine.memory.address(w, op, l);
            Space space = Space.ofGeneric(a);
            unfenced.remove(a - space.window);
        }
        engine.advance(w, mask, pc + 1);
    }

    /**
     * Reports a tensor copy that uses a map in global memory written through the generic proxy
     * and not acquired by fence.proxy.tensormap::generic: the tensormap proxy may read stale bytes
     * (memory consistency model, proxy fences; fence.proxy.tensormap, 9.7.13.4).
     */
    void checkFenced(Warp w, Op op, int pc, int l, long mapAddress) {
        if (unfenced.isEmpty() || Space.ofGeneric(mapAddress) != Space.GLOBAL) {
            return;
        }
        // Global addresses are their own generic addresses.
        if (unfenced.contains(mapAddress)) {
            hazards.undefined(op, pc, "exec.tensormap-fence", String.format("'%s' uses the tensor map at 0x%x, which"
                    + " was modified through the generic proxy (tensormap.replace / tensormap.cp_fenceproxy) and not"
                    + " acquired with fence.proxy.tensormap::generic.acquire [map], 128 before this use"
                    + " (fence.proxy.tensormap, 9.7.13.4)", op.mnemonic(), mapAddress), engine.where(w, l));
        }
    }
}
