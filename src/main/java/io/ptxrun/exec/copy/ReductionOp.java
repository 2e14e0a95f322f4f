package io.ptxrun.exec.copy;

/**
 * The {@code .redOp} of {@code cp.reduce.async.bulk} and {@code cp.reduce.async.bulk.tensor}
 * (PTX ISA 9.7.9.25.4.2 and 9.7.9.25.5.3).
 */
public enum ReductionOp {
    ADD("add"),
    MIN("min"),
    MAX("max"),
    INC("inc"),
    DEC("dec"),
    AND("and"),
    OR("or"),
    XOR("xor");

    private final String ptxName;

    ReductionOp(String ptxName) {
        this.ptxName = ptxName;
    }

    /** The modifier without its dot: {@code add}, {@code inc}, ... */
    public String ptxName() {
        return ptxName;
    }

    /** The operation spelt {@code name} (with or without the leading dot), or null. */
    public static ReductionOp fromPtx(String name) {
        String bare = name.startsWith(".") ? name.substring(1) : name;
        for (ReductionOp op : values()) {
            if (op.ptxName.equals(bare)) {
                return op;
            }
        }
        return null;
    }

    @Override
    public String toString() {
        return ptxName;
    }
}
