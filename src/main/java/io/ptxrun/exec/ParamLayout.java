package io.ptxrun.exec;

import io.ptxrun.ast.Function;
import io.ptxrun.ast.Param;

import java.util.ArrayList;
import java.util.List;

/**
 * Where each parameter of a kernel lies in its .param block: declaration order, each parameter
 * at the next offset that is a multiple of its alignment (explicit `.align` or natural).
 */
public record ParamLayout(List<Slot> slots, int totalBytes) {
    public ParamLayout {
        slots = List.copyOf(slots);
    }

    public record Slot(String name, int offset, int size, int align, Param param) {}

    /** Bytes of parameters one kernel launch or call may pass (CUDA 12.1+ on sm_70 and later). */
    public static final int MAX_BYTES = 32764;

    /** Parameters that take more than {@link #MAX_BYTES}; thrown before any array is sized by them. */
    public static final class TooLarge extends RuntimeException {
        public final Param param;

        TooLarge(Param param, long bytes) {
            super("parameter '" + param.name() + "' ends at byte " + (bytes == Long.MAX_VALUE ? "2^63" : bytes)
                    + ", beyond the " + MAX_BYTES + " bytes of parameters a launch or call can pass", null, false, false);
            this.param = param;
        }
    }

    public static ParamLayout of(Function f) {
        return of(f.params());
    }

    static ParamLayout of(List<Param> params) {
        List<Slot> out = new ArrayList<>();
        int off = 0;
        int maxAlign = 1;
        for (Param p : params) {
            int align = p.effectiveAlign();
            off = alignUp(off, align);
            long bytes = p.sizeBytes();
            if (bytes < 0 || bytes > MAX_BYTES - off) {
                throw new TooLarge(p, bytes < 0 ? Long.MAX_VALUE : off + bytes);
            }
            int size = (int) bytes;
            out.add(new Slot(p.name(), off, size, align, p));
            off += size;
            maxAlign = Math.max(maxAlign, align);
        }
        return new ParamLayout(out, alignUp(off, maxAlign));
    }

    public Slot slot(String name) {
        return slots.stream().filter(s -> s.name().equals(name)).findFirst().orElse(null);
    }

    static int alignUp(int v, int a) {
        return a <= 1 ? v : (v + a - 1) / a * a;
    }
}
