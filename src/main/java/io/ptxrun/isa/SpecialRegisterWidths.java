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

    private SpecialRegisterWidths() {}

    public static int bits(SpecialRegister r) {
        return SIXTY_FOUR_BIT.contains(r) ? 64 : 32;
    }
}
