package io.ptxrun.isa;

import io.ptxrun.ast.SpecialRegister;
import java.util.EnumSet;
import java.util.Set;

/**
 * The width of each special register (PTX ISA 10): all are 32-bit except those listed here
 * (`%clock64`, `%globaltimer`, `%gridid`, `%pm*_64`, `%current_graph_exec`, the `%lanemask_*` are
 * 32-bit). ptxas: "Arguments mismatch for instruction 'mov'" for `mov.u32 %r1, %clock64`.
 */
public final class SpecialRegisterWidths {
    private static final Set<SpecialRegister> SIXTY_FOUR_BIT = EnumSet.of(SpecialRegister.CLOCK64,
            SpecialRegister.GLOBALTIMER, SpecialRegister.GRIDID, SpecialRegister.PM_64,
            SpecialRegister.CURRENT_GRAPH_EXEC);

    /**
     * The CTA geometry registers also read into 16 bits (ptxas takes `mov.u16 %h, %tid.y`, as in
     * PTX before 2.0, where they were 16-bit), unlike the others (`mov.u16 %h, %laneid` is refused).
     */
    private static final Set<SpecialRegister> ALSO_SIXTEEN_BIT = EnumSet.of(SpecialRegister.TID,
            SpecialRegister.NTID, SpecialRegister.CTAID, SpecialRegister.NCTAID);

    private SpecialRegisterWidths() {}

    /** Bits of the register's value; 1 for the predicate %is_explicit_cluster (PTX ISA 10.38). */
    public static int bits(SpecialRegister r) {
        return r == SpecialRegister.IS_EXPLICIT_CLUSTER ? 1 : SIXTY_FOUR_BIT.contains(r) ? 64 : 32;
    }

    /** Whether an instruction of {@code typeBits} may read the register. */
    public static boolean readableAs(SpecialRegister r, int typeBits) {
        return typeBits == bits(r) || typeBits == 16 && ALSO_SIXTEEN_BIT.contains(r);
    }
}
