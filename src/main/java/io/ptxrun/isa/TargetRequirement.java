package io.ptxrun.isa;

import java.util.Set;
import java.util.stream.Collectors;

/** Which `.target` architectures provide a feature (the Target ISA notes of each instruction). */
public sealed interface TargetRequirement {

    boolean satisfiedBy(Target target, PtxVersion version);

    /** "sm_90 or higher", "sm_100a, sm_110a or the sm_100f family". */
    String describe();

    static TargetRequirement atLeast(int sm) {
        return new AtLeast(sm);
    }

    /** Any target, for features that only have a version requirement. */
    TargetRequirement ANY = new AtLeast(0);

    /** Every chip from sm onwards, in all variants: "requires .target sm_90 or higher". */
    record AtLeast(int sm) implements TargetRequirement {
        @Override
        public boolean satisfiedBy(Target target, PtxVersion version) {
            return target.atLeast(sm);
        }

        @Override
        public String describe() {
            return "sm_" + sm + " or higher";
        }
    }

    /**
     * Modules for a target older than sm, or of a PTX ISA version before version: what later
     * targets dropped, unless the module is old enough to keep its old meaning.
     */
    record OlderThan(int sm, PtxVersion version) implements TargetRequirement {
        @Override
        public boolean satisfiedBy(Target target, PtxVersion moduleVersion) {
            return !target.atLeast(sm) || !moduleVersion.atLeast(version);
        }

        @Override
        public String describe() {
            return "targets below sm_" + sm + " or PTX ISA before " + version;
        }
    }

    /**
     * A feature that an earlier chip gained in a later PTX ISA version: `base`, or chip `sm` from
     * `from` on (ptxas: "Feature 'cvt with .e4m3x2/.e5m2x2' requires .target sm_90" for sm_89
     * under .version 7.8, accepted there from 8.1).
     */
    record OrEarlierChipFrom(TargetRequirement base, int sm, PtxVersion from) implements TargetRequirement {
        @Override
        public boolean satisfiedBy(Target target, PtxVersion version) {
            return base.satisfiedBy(target, version) || target.atLeast(sm) && version.atLeast(from);
        }

        @Override
        public String describe() {
            return base.describe() + " (sm_" + sm + " from PTX ISA " + from + ")";
        }
    }

    /**
     * Architecture-specific features: the listed `a` chips, and from familyFrom on also the `a`
     * and `f` targets of the listed families ("supported on sm_100f or higher in the same family
     * from PTX ISA version 8.8"). ptxas: "Feature '...' not supported on .target 'sm_100'".
     */
    record ArchSpecific(Set<Integer> chips, Set<Integer> families, PtxVersion familyFrom)
            implements TargetRequirement {
        public ArchSpecific {
            chips = Set.copyOf(chips);
            families = Set.copyOf(families);
        }

        @Override
        public boolean satisfiedBy(Target target, PtxVersion version) {
            if (target.variant() == Target.Variant.ARCH_SPECIFIC && chips.contains(target.sm())) {
                return true;
            }
            return target.variant() != Target.Variant.PLAIN && version.atLeast(familyFrom)
                    && families.contains(target.familyHead()) && target.sm() >= target.familyHead();
        }

        @Override
        public String describe() {
            return chips.stream().sorted().map(c -> "sm_" + c + "a").collect(Collectors.joining(", "))
                    + (families.isEmpty() ? "" : " or, from PTX ISA " + familyFrom + ", the "
                    + families.stream().sorted().map(f -> "sm_" + f + "f").collect(Collectors.joining("/"))
                    + " family");
        }
    }
}
