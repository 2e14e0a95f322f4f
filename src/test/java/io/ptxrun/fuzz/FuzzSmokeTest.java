package io.ptxrun.fuzz;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;

import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A short run of each fuzz target on seeded random inputs, for CI (the coverage-guided campaign is
 * bench/fuzz.sh). A failure names the seed and input index that reproduce it.
 */
class FuzzSmokeTest {
    /** Inputs per target: about ten seconds of CI time in all. */
    private static final int INPUTS = 300;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"parse-bytes", "parse-mutated", "check-mutated", "launch-bytes", "launch-mutated",
            "launch-args", "run-mutated"})
    void targetEndsInDiagnosticsOrAResult(String target) {
        long seed = target.hashCode();
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < INPUTS; i++) {
            byte[] input = RandomInputs.next(target, random);
            int index = i;
            assertDoesNotThrow(() -> Targets.run(target, input),
                    () -> target + " input " + index + " of seed " + seed + ": " + RandomInputs.hex(input));
        }
    }
}
