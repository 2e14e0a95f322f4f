package io.ptxrun.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * ptxrun's verdict on every module of the target sweep (testdata/sweep): each instruction form of
 * the labelled corpora for every ptxas target and around the PTX ISA version that introduced it.
 * A form passes when ptxrun agrees with ptxas on all its modules except exactly those listed in
 * testdata/sweep/disagreements.tsv: a listed module that now agrees fails as well, so the list
 * stays exact. Overall agreement must be at least 99.8%.
 */
class TargetSweepTest {
    static final Path DISAGREEMENTS = TargetSweep.DIR.resolve("disagreements.tsv");
    static final double AGREEMENT_FLOOR = 0.998;

    private static Map<TargetSweep.Form, List<TargetSweep.Case>> sweep;

    static synchronized Map<TargetSweep.Form, List<TargetSweep.Case>> sweep() {
        if (sweep == null) {
            sweep = TargetSweep.load();
        }
        return sweep;
    }

    static Stream<TargetSweep.Form> forms() {
        return sweep().keySet().stream();
    }

    /** id -> reason, from the committed list. */
    static Map<String, String> knownDisagreements() {
        return ConformanceTest.disagreementList(DISAGREEMENTS);
    }

    @Test
    void sweepCoversEveryTargetAndForm() {
        Set<String> targets = sweep().values().stream().flatMap(List::stream).map(TargetSweep.Case::target)
                .collect(Collectors.toSet());
        assertTrue(targets.containsAll(List.of("sm_50", "sm_75", "sm_90a", "sm_100f", "sm_110a", "sm_121f")),
                () -> "targets: " + targets);
        assertTrue(sweep().size() >= 2000, () -> sweep().size() + " forms");
        for (Map.Entry<TargetSweep.Form, List<TargetSweep.Case>> e : sweep().entrySet()) {
            assertTrue(e.getValue().stream().filter(c -> c.version().equals("9.0")).count() == targets.size(),
                    () -> e.getKey().id() + " is not assembled for every target at 9.0");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("forms")
    void agreesWithPtxasOnEveryTargetExceptTheListedModules(TargetSweep.Form form) {
        Map<String, String> known = knownDisagreements();
        List<String> problems = new ArrayList<>();
        for (TargetSweep.Case c : sweep().get(form)) {
            TargetSweep.Verdict v = TargetSweep.verdict(c);
            boolean listed = known.containsKey(c.id());
            if (v.agrees() && listed) {
                problems.add(c.id() + " now agrees with ptxas: remove it from " + DISAGREEMENTS);
            } else if (!v.agrees() && !listed) {
                problems.add(v.describe());
            }
        }
        assertTrue(problems.isEmpty(), () -> String.join("\n", problems));
    }

    @Test
    void agreementIsAtLeastTheRequiredLevel() {
        Map<String, int[]> byTarget = new TreeMap<>();
        for (List<TargetSweep.Case> cases : sweep().values()) {
            for (TargetSweep.Case c : cases) {
                boolean agrees = TargetSweep.verdict(c).agrees();
                for (String key : List.of(c.target(), "ALL")) {
                    int[] m = byTarget.computeIfAbsent(key, k -> new int[2]);
                    m[0]++;
                    m[1] += agrees ? 1 : 0;
                }
            }
        }
        StringBuilder table = new StringBuilder(String.format("%-8s %7s %7s %8s%n", "target", "modules", "agree", "%"));
        byTarget.forEach((t, m) -> table.append(String.format("%-8s %7d %7d %7.3f%%%n", t, m[0], m[1], 100.0 * m[1] / m[0])));
        System.out.print(table);
        int[] all = byTarget.get("ALL");
        double agreement = all[1] / (double) all[0];
        assertTrue(agreement >= AGREEMENT_FLOOR, () -> String.format("agreement %.4f below %.4f%n%s", agreement,
                AGREEMENT_FLOOR, table));
    }

    @Test
    void listedDisagreementsAreSweepModules() {
        Set<String> ids = sweep().values().stream().flatMap(List::stream).map(TargetSweep.Case::id)
                .collect(Collectors.toSet());
        for (String id : knownDisagreements().keySet()) {
            assertTrue(ids.contains(id), () -> id + " in " + DISAGREEMENTS + " is not a module of the sweep");
        }
    }

    /**
     * Not a check but a tool, excluded from the suite by its tag: regenerate the list with
     * `mvn -o test -Dtest=TargetSweepTest -Dgroups=tool -DexcludedTestGroups=none`. Reasons
     * written by hand survive.
     */
    @Test
    @Tag("tool")
    void writeDisagreements() throws IOException {
        Map<String, String> previous = Files.exists(DISAGREEMENTS) ? knownDisagreements() : Map.of();
        List<String> lines = new ArrayList<>();
        lines.add("id\tptxas\tptxrun\treason");
        for (List<TargetSweep.Case> cases : sweep().values()) {
            for (TargetSweep.Case c : cases) {
                TargetSweep.Verdict v = TargetSweep.verdict(c);
                if (!v.agrees()) {
                    lines.add(ConformanceTest.disagreementLine(previous, c.id(), c.ptxasAccepts(), c.ptxasMessage(),
                            v.accepts(), v.firstError()));
                }
            }
        }
        Files.write(DISAGREEMENTS, lines);
        ConformanceTest.forgetDisagreementList(DISAGREEMENTS);
        assertEquals(lines.size() - 1, knownDisagreements().size());
    }
}
