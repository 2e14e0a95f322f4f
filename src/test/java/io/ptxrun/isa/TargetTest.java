package io.ptxrun.isa;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Target names, the version that introduced each, families, and --gpu-name compatibility (ptxas 13.0). */
class TargetTest {

    @ParameterizedTest
    @CsvSource({"sm_90, 90, PLAIN", "sm_90a, 90, ARCH_SPECIFIC", "sm_100f, 100, FAMILY_SPECIFIC",
            "compute_80, 80, PLAIN", "sm_121a, 121, ARCH_SPECIFIC"})
    void parsesKnownTargets(String name, int sm, Target.Variant variant) {
        assertEquals(Optional.of(new Target(sm, variant)), Target.parse(name));
    }

    @ParameterizedTest
    @CsvSource({"sm_99", "sm_90f", "sm_", "sm_9x", "gfx90a", "sm_80b"})
    void rejectsUnknownTargets(String name) {
        assertEquals(Optional.empty(), Target.parse(name));
    }

    @ParameterizedTest
    @CsvSource({"sm_90, 7.8", "sm_90a, 8.0", "sm_100a, 8.6", "sm_100f, 8.8", "sm_103a, 8.8", "sm_110, 9.0",
            "sm_120, 8.7", "sm_80, 7.0", "sm_75, 6.3", "sm_89, 7.8"})
    void versionsIntroducingTargets(String target, String version) {
        assertEquals(PtxVersion.of(version), Target.of(target).introducedIn());
    }

    @Test
    void familiesGroupLaterChips() {
        assertTrue(Target.of("sm_103a").sameFamily(Target.of("sm_100f")));
        assertTrue(Target.of("sm_121").sameFamily(Target.of("sm_120f")));
        assertTrue(Target.of("sm_110f").sameFamily(Target.of("sm_101a")), "sm_101 was renamed sm_110");
        assertFalse(Target.of("sm_120a").sameFamily(Target.of("sm_100f")));
    }

    @Test
    void gpuNameCompatibilityFollowsPtxas() {
        assertNull(Target.of("sm_80").incompatibilityWith(Target.of("sm_90")));
        assertNotNull(Target.of("sm_90").incompatibilityWith(Target.of("sm_80")));
        assertNull(Target.of("sm_100a").incompatibilityWith(Target.of("sm_100a")));
        assertTrue(Target.of("sm_100a").incompatibilityWith(Target.of("sm_100")).contains("cannot be compiled for"));
        assertTrue(Target.of("sm_100a").incompatibilityWith(Target.of("sm_103a")).contains("future architecture"));
        assertNull(Target.of("sm_100f").incompatibilityWith(Target.of("sm_103")));
        assertNull(Target.of("sm_100f").incompatibilityWith(Target.of("sm_100a")));
        assertTrue(Target.of("sm_100f").incompatibilityWith(Target.of("sm_110")).contains("SM-family"));
    }

    @Test
    void archSpecificRequirementsHonourFamiliesFromPtx88() {
        TargetRequirement r = TensorCopyRules.SM100_FAMILY;
        assertTrue(r.satisfiedBy(Target.of("sm_100a"), PtxVersion.of("8.6")));
        assertFalse(r.satisfiedBy(Target.of("sm_100"), PtxVersion.of("9.0")));
        assertTrue(r.satisfiedBy(Target.of("sm_100f"), PtxVersion.of("8.8")));
        assertTrue(r.satisfiedBy(Target.of("sm_103a"), PtxVersion.of("9.0")));
        assertFalse(r.satisfiedBy(Target.of("sm_120a"), PtxVersion.of("9.0")));
        assertFalse(r.satisfiedBy(Target.of("sm_90a"), PtxVersion.of("9.0")));
    }

    @Test
    void versionsKnownToPtxas() {
        assertTrue(PtxVersion.of("9.0").isKnown());
        assertTrue(PtxVersion.of("7.8").isKnown());
        assertFalse(PtxVersion.of("6.9").isKnown());
        assertFalse(PtxVersion.of("9.1").isKnown());
        assertTrue(PtxVersion.of("8.10").compareTo(PtxVersion.of("8.9")) > 0, "minor versions compare as numbers");
    }
}
