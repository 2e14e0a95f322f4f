package io.ptxrun.ast;

import java.util.HashMap;
import java.util.Map;

/** Special registers (PTX ISA 10). Vector ones take `.x/.y/.z`; numbered ones take an index. */
public enum SpecialRegister {
    TID("%tid", true), NTID("%ntid", true), LANEID("%laneid"), WARPID("%warpid"), NWARPID("%nwarpid"),
    CTAID("%ctaid", true), NCTAID("%nctaid", true), SMID("%smid"), NSMID("%nsmid"), GRIDID("%gridid"),
    IS_EXPLICIT_CLUSTER("%is_explicit_cluster"), CLUSTERID("%clusterid", true),
    NCLUSTERID("%nclusterid", true), CLUSTER_CTAID("%cluster_ctaid", true),
    CLUSTER_NCTAID("%cluster_nctaid", true), CLUSTER_CTARANK("%cluster_ctarank"),
    CLUSTER_NCTARANK("%cluster_nctarank"),
    LANEMASK_EQ("%lanemask_eq"), LANEMASK_LE("%lanemask_le"), LANEMASK_LT("%lanemask_lt"),
    LANEMASK_GE("%lanemask_ge"), LANEMASK_GT("%lanemask_gt"),
    CLOCK("%clock"), CLOCK_HI("%clock_hi"), CLOCK64("%clock64"),
    PM("%pm"), PM_64("%pm_64"), ENVREG("%envreg"),
    GLOBALTIMER("%globaltimer"), GLOBALTIMER_LO("%globaltimer_lo"), GLOBALTIMER_HI("%globaltimer_hi"),
    RESERVED_SMEM_OFFSET_BEGIN("%reserved_smem_offset_begin"),
    RESERVED_SMEM_OFFSET_END("%reserved_smem_offset_end"), RESERVED_SMEM_OFFSET_CAP("%reserved_smem_offset_cap"),
    RESERVED_SMEM_OFFSET_0("%reserved_smem_offset_0"), RESERVED_SMEM_OFFSET_1("%reserved_smem_offset_1"),
    TOTAL_SMEM_SIZE("%total_smem_size"), AGGR_SMEM_SIZE("%aggr_smem_size"),
    DYNAMIC_SMEM_SIZE("%dynamic_smem_size"), CURRENT_GRAPH_EXEC("%current_graph_exec");

    public final String spelling;
    public final boolean isVector;

    SpecialRegister(String spelling) {
        this(spelling, false);
    }

    SpecialRegister(String spelling, boolean isVector) {
        this.spelling = spelling;
        this.isVector = isVector;
    }

    public boolean isNumbered() {
        return this == PM || this == PM_64 || this == ENVREG;
    }

    private static final Map<String, SpecialRegister> BY_NAME = new HashMap<>();

    static {
        for (SpecialRegister r : values()) {
            BY_NAME.put(r.spelling, r);
        }
    }

    /** The register a name denotes, or null. Numbered names (`%envreg3`, `%pm7_64`) resolve too. */
    public static SpecialRegister lookup(String name) {
        SpecialRegister r = BY_NAME.get(name);
        if (r != null || !name.startsWith("%")) {
            return r;
        }
        if (name.matches("%envreg([0-9]|[12][0-9]|3[01])")) {
            return ENVREG;
        }
        if (name.matches("%pm[0-7]")) {
            return PM;
        }
        if (name.matches("%pm[0-7]_64")) {
            return PM_64;
        }
        return null;
    }

    /** The index of a numbered register name, else -1. */
    public static int indexOf(String name) {
        if (name.startsWith("%envreg")) {
            return Integer.parseInt(name.substring("%envreg".length()));
        }
        if (name.startsWith("%pm") && name.length() > 3 && Character.isDigit(name.charAt(3))) {
            return name.charAt(3) - '0';
        }
        return -1;
    }
}
