package io.ptxrun.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * The targets under Jazzer. Within {@code mvn test} each replays its stored inputs; with
 * {@code JAZZER_FUZZ=1} and one method selected, libFuzzer mutates inputs guided by the coverage of
 * io.ptxrun (bench/fuzz.sh runs them in turn and sums up).
 */
class TargetsFuzzTest {
    @FuzzTest
    void parseBytes(byte[] data) {
        Targets.run("parse-bytes", data);
    }

    @FuzzTest
    void parseMutated(byte[] data) {
        Targets.run("parse-mutated", data);
    }

    @FuzzTest
    void checkMutated(byte[] data) {
        Targets.run("check-mutated", data);
    }

    @FuzzTest
    void launchBytes(byte[] data) {
        Targets.run("launch-bytes", data);
    }

    @FuzzTest
    void launchMutated(byte[] data) {
        Targets.run("launch-mutated", data);
    }

    @FuzzTest
    void launchArgs(byte[] data) {
        Targets.run("launch-args", data);
    }

    @FuzzTest
    void runMutated(byte[] data) {
        Targets.run("run-mutated", data);
    }
}
