package io.ptxrun.isa;

import java.util.Map;
import java.util.Optional;

/**
 * A target architecture `sm_XY`, `sm_XYa` (architecture-specific: features of exactly that chip)
 * or `sm_XYf` (family-specific: features shared by the later chips of one family), PTX ISA
 * 11.1.2 and the Target ISA notes of each instruction.
 */
public record Target(int sm, Variant variant) implements Comparable<Target> {

    public enum Variant {
        /** `sm_90`: forward compatible with every later target. */
        PLAIN(""),
        /** `sm_90a`: runs only on that chip. */
        ARCH_SPECIFIC("a"),
        /** `sm_100f`: runs on the chips of one family from this one on. */
        FAMILY_SPECIFIC("f");

        public final String suffix;

        Variant(String suffix) {
            this.suffix = suffix;
        }
    }

    /**
     * Lowest `.version` that accepts each target, measured with ptxas 13.0 at every version
     * ("PTX .version 7.7 does not support .target sm_90"). Keys are sm numbers with the suffix.
     */
    private static final Map<String, PtxVersion> INTRODUCED = Map.ofEntries(
            Map.entry("sm_10", v("1.0")), Map.entry("sm_11", v("1.0")), Map.entry("sm_12", v("1.4")),
            Map.entry("sm_13", v("1.4")), Map.entry("sm_20", v("2.0")), Map.entry("sm_21", v("2.0")),
            Map.entry("sm_30", v("3.0")), Map.entry("sm_32", v("4.0")), Map.entry("sm_35", v("3.1")),
            Map.entry("sm_37", v("4.1")), Map.entry("sm_50", v("4.0")), Map.entry("sm_52", v("4.1")),
            Map.entry("sm_53", v("4.2")), Map.entry("sm_60", v("5.0")), Map.entry("sm_61", v("5.0")),
            Map.entry("sm_62", v("5.0")), Map.entry("sm_70", v("6.0")), Map.entry("sm_72", v("6.1")),
            Map.entry("sm_75", v("6.3")), Map.entry("sm_80", v("7.0")), Map.entry("sm_86", v("7.1")),
            Map.entry("sm_87", v("7.4")), Map.entry("sm_88", v("7.3")), Map.entry("sm_89", v("7.8")),
            Map.entry("sm_90", v("7.8")), Map.entry("sm_90a", v("8.0")),
            Map.entry("sm_100", v("8.6")), Map.entry("sm_100a", v("8.6")), Map.entry("sm_100f", v("8.8")),
            Map.entry("sm_101", v("8.6")), Map.entry("sm_101a", v("8.6")), Map.entry("sm_101f", v("8.8")),
            Map.entry("sm_103", v("8.8")), Map.entry("sm_103a", v("8.8")), Map.entry("sm_103f", v("8.8")),
            Map.entry("sm_110", v("9.0")), Map.entry("sm_110a", v("9.0")), Map.entry("sm_110f", v("9.0")),
            Map.entry("sm_120", v("8.7")), Map.entry("sm_120a", v("8.7")), Map.entry("sm_120f", v("8.8")),
            Map.entry("sm_121", v("8.8")), Map.entry("sm_121a", v("8.8")), Map.entry("sm_121f", v("8.8")));

    /**
     * The family of each chip: the first chip of the family (Target ISA notes: "sm_100f or higher in
     * the same family"; sm_101 was renamed sm_110 in PTX ISA 9.0 and keeps its family).
     */
    private static final Map<Integer, Integer> FAMILY_HEAD = Map.of(
            100, 100, 103, 100, 101, 110, 110, 110, 120, 120, 121, 120);

    private static PtxVersion v(String s) {
        return PtxVersion.of(s);
    }

    /** `sm_90a` -> Target(90, ARCH_SPECIFIC); also accepts `compute_XY`, which ptxas treats alike. */
    public static Optional<Target> parse(String name) {
        String digits;
        if (name.startsWith("sm_")) {
            digits = name.substring(3);
        } else if (name.startsWith("compute_")) {
            digits = name.substring(8);
        } else {
            return Optional.empty();
        }
        Variant variant = Variant.PLAIN;
        if (digits.endsWith("a")) {
            variant = Variant.ARCH_SPECIFIC;
        } else if (digits.endsWith("f")) {
            variant = Variant.FAMILY_SPECIFIC;
        }
        if (variant != Variant.PLAIN) {
            digits = digits.substring(0, digits.length() - 1);
        }
        if (digits.isEmpty() || digits.length() > 4) {
            return Optional.empty();
        }
        for (int i = 0; i < digits.length(); i++) {
            if (!Character.isDigit(digits.charAt(i))) {
                return Optional.empty();
            }
        }
        Target t = new Target(Integer.parseInt(digits), variant);
        return INTRODUCED.containsKey(t.toString()) ? Optional.of(t) : Optional.empty();
    }

    public static Target of(String name) {
        return parse(name).orElseThrow(() -> new IllegalArgumentException("unknown target " + name));
    }

    /** The first `.version` that accepts this target. */
    public PtxVersion introducedIn() {
        return INTRODUCED.get(toString());
    }

    /** The first chip of this chip's family, or the chip itself outside the tables. */
    public int familyHead() {
        return FAMILY_HEAD.getOrDefault(sm, sm);
    }

    public boolean sameFamily(Target other) {
        return familyHead() == other.familyHead();
    }

    /** Plain ordering by chip number: `sm_90a` and `sm_90` are both at least sm_90. */
    public boolean atLeast(int otherSm) {
        return sm >= otherSm;
    }

    /**
     * Whether code for this `.target` may be assembled for the chip `gpu` (ptxas --gpu-name):
     * a plain target for any chip at least as new; an `a` target only for exactly that chip; an `f`
     * target for later chips of the same family. Null when compatible, else ptxas's reason.
     */
    public String incompatibilityWith(Target gpu) {
        return switch (variant) {
            case PLAIN -> gpu.sm >= sm ? null
                    : "SM version specified by .target is higher than default SM version assumed";
            case ARCH_SPECIFIC -> gpu.sm == sm && gpu.variant == Variant.ARCH_SPECIFIC ? null
                    : gpu.sm == sm ? "PTX with .target '" + this + "' cannot be compiled for architecture '" + gpu + "'"
                    : "Program with .target '" + this + "' cannot be compiled to future architecture";
            case FAMILY_SPECIFIC -> gpu.sm >= sm && sameFamily(gpu) && gpu.variant != Variant.FAMILY_SPECIFIC
                    || gpu.equals(this) ? null
                    : "Program with .target '" + this + "' cannot be compiled to different SM-family architecture";
        };
    }

    @Override
    public int compareTo(Target o) {
        return sm != o.sm ? Integer.compare(sm, o.sm) : variant.compareTo(o.variant);
    }

    @Override
    public String toString() {
        return "sm_" + sm + variant.suffix;
    }
}
