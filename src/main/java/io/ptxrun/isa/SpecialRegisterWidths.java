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

    /** The PTX ISA version and target that introduced a special register (PTX ISA chapter 10). */
    public record Requirement(PtxVersion minVersion, TargetRequirement target) {}

    /**
     * The registers introduced after PTX ISA 6.3 (the oldest version ptxas takes for sm_75), as
     * ptxas checks them: "Feature '%cluster_ctaid' requires PTX ISA .version 7.8 or later",
     * "Feature '%cluster_ctaid' requires .target sm_90 or higher".
     */
    private static final java.util.Map<SpecialRegister, Requirement> REQUIREMENTS = requirements();

    private static java.util.Map<SpecialRegister, Requirement> requirements() {
        java.util.Map<SpecialRegister, Requirement> m = new java.util.EnumMap<>(SpecialRegister.class);
        Requirement cluster = new Requirement(PtxVersion.of("7.8"), TargetRequirement.atLeast(90));
        for (SpecialRegister r : EnumSet.of(SpecialRegister.IS_EXPLICIT_CLUSTER, SpecialRegister.CLUSTERID,
                SpecialRegister.NCLUSTERID, SpecialRegister.CLUSTER_CTAID, SpecialRegister.CLUSTER_NCTAID,
                SpecialRegister.CLUSTER_CTARANK, SpecialRegister.CLUSTER_NCTARANK)) {
            m.put(r, cluster);
        }
        Requirement reserved = new Requirement(PtxVersion.of("7.6"), TargetRequirement.ANY);
        for (SpecialRegister r : EnumSet.of(SpecialRegister.RESERVED_SMEM_OFFSET_BEGIN,
                SpecialRegister.RESERVED_SMEM_OFFSET_END, SpecialRegister.RESERVED_SMEM_OFFSET_CAP,
                SpecialRegister.RESERVED_SMEM_OFFSET_0, SpecialRegister.RESERVED_SMEM_OFFSET_1)) {
            m.put(r, reserved);
        }
        m.put(SpecialRegister.AGGR_SMEM_SIZE, new Requirement(PtxVersion.of("8.1"), TargetRequirement.ANY));
        m.put(SpecialRegister.CURRENT_GRAPH_EXEC, new Requirement(PtxVersion.of("8.0"), TargetRequirement.ANY));
        return m;
    }

    /** What a register needs beyond the module's basics, or null for the registers of every module. */
    public static Requirement requirement(SpecialRegister r) {
        return REQUIREMENTS.get(r);
    }

    /** Bits of the register's value; 1 for the predicate %is_explicit_cluster (PTX ISA 10.38). */
    public static int bits(SpecialRegister r) {
        return r == SpecialRegister.IS_EXPLICIT_CLUSTER ? 1 : SIXTY_FOUR_BIT.contains(r) ? 64 : 32;
    }

    /** Whether an instruction of {@code typeBits} may read the register. */
    public static boolean readableAs(SpecialRegister r, int typeBits) {
        // %gridid was 32 bits wide before PTX ISA 3.0, and ptxas still reads it into 32 bits.
        return typeBits == bits(r) || typeBits == 16 && ALSO_SIXTEEN_BIT.contains(r)
                || typeBits == 32 && r == SpecialRegister.GRIDID;
    }
}
