package io.ptxrun.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.ptxrun.TestData;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * ptxrun's verdict on every module of the ptxas-labelled conformance corpus. A case passes when
 * ptxrun agrees with ptxas, or when it is one of the known disagreements listed in
 * testdata/check/disagreements.tsv; a listed case that now agrees fails too, so that the list is
 * kept exact. The overall agreement must not fall below the level measured when the list was
 * written. Regenerate the list with the `tool`-tagged writeDisagreements (see there).
 */
class ConformanceTest {
    static final Path DISAGREEMENTS = TestData.ROOT.resolve("check/disagreements.tsv");

    /**
     * Measured: 26735 of 26782 cases agree (10287 conformance cases: all; 2100 arithmetic,
     * conversion and miscellaneous cases of core-isa-arith: all; the 5201 mma cases: all but 37
     * forms ptxas takes beyond mma's Syntax block; the 1876 mma.sp, 1054 ldmatrix, stmatrix and
     * movmatrix, and 84 st.async and red.async cases: all; the other surrounding-ISA, extra async
     * and instruction-family cases of testdata/check: all but 10; each disagreement is listed).
     */
    static final double AGREEMENT_FLOOR = 0.9982;

    private static List<ConformanceCorpus.Case> cases;

    static synchronized List<ConformanceCorpus.Case> cases() {
        if (cases == null) {
            cases = ConformanceCorpus.load();
        }
        return cases;
    }

    static Stream<ConformanceCorpus.Case> allCases() {
        return cases().stream();
    }

    /** id -> reason, from the committed list. */
    static Map<String, String> knownDisagreements() {
        return disagreementList(DISAGREEMENTS);
    }

    /**
     * id -> reason, from a list of disagreements with ptxas (a tab-separated file: id first, reason
     * fourth; # comments). Read once per list: the per-case tests ask it for every case.
     */
    static Map<String, String> disagreementList(Path list) {
        return LISTS.computeIfAbsent(list, ConformanceTest::readDisagreementList);
    }

    /**
     * One line of a disagreement list: id, both verdicts, and the reason (one written by hand before
     * survives; else ptxas's message where ptxrun accepts, ptxrun's first error where it rejects).
     */
    static String disagreementLine(Map<String, String> previous, String id, boolean ptxasAccepts,
            String ptxasMessage, boolean accepts, io.ptxrun.diag.Diagnostic firstError) {
        String reason = !previous.getOrDefault(id, "").isBlank() ? previous.get(id)
                : accepts ? "ptxas: " + ptxasMessage : "ptxrun: " + firstError.rule() + ": " + firstError.message();
        return id + "\t" + (ptxasAccepts ? "accept" : "reject") + "\t" + (accepts ? "accept" : "reject") + "\t"
                + reason.replace('\t', ' ').replace('\n', ' ');
    }

    /** After a list is rewritten: the next read takes the new one. */
    static void forgetDisagreementList(Path list) {
        LISTS.remove(list);
    }

    private static final Map<Path, Map<String, String>> LISTS = new java.util.concurrent.ConcurrentHashMap<>();

    private static Map<String, String> readDisagreementList(Path list) {
        Map<String, String> known = new LinkedHashMap<>();
        try {
            for (String line : Files.readAllLines(list)) {
                if (line.isBlank() || line.startsWith("id\t") || line.startsWith("#")) {
                    continue;
                }
                String[] f = line.split("\t", -1);
                known.put(f[0], f.length > 3 ? f[3] : "");
            }
        } catch (IOException e) {
            fail("cannot read " + list + ": " + e);
        }
        return java.util.Collections.unmodifiableMap(known);
    }

    @Test
    void corpusIsPresent() {
        assertTrue(cases().size() >= 10_000, "testdata/conformance holds the labelled corpus");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("allCases")
    void agreesWithPtxasOrIsAListedDisagreement(ConformanceCorpus.Case c) {
        ConformanceCorpus.Verdict v = ConformanceCorpus.verdict(c);
        boolean listed = knownDisagreements().containsKey(c.id());
        if (v.agrees()) {
            assertTrue(!listed, () -> c.id() + " now agrees with ptxas: remove it from " + DISAGREEMENTS);
        } else {
            assertTrue(listed, () -> c.id() + ": ptxas " + (c.ptxasAccepts() ? "accepts" : "rejects (" + c.ptxasMessage() + ")")
                    + ", ptxrun " + (v.accepts() ? "accepts" : "rejects: " + v.firstError()));
        }
    }

    @Test
    void overallAgreementStaysAtTheMeasuredLevel() {
        List<ConformanceCorpus.Verdict> verdicts = cases().stream().map(ConformanceCorpus::verdict).toList();
        Map<String, int[]> confusion = ConformanceCorpus.confusion(verdicts);
        System.out.print(ConformanceCorpus.table(confusion));
        int[] all = confusion.get("ALL");
        double agreement = (all[0] + all[3]) / (double) verdicts.size();
        assertTrue(agreement >= AGREEMENT_FLOOR, () -> String.format("agreement %.4f below %.4f%n%s", agreement,
                AGREEMENT_FLOOR, ConformanceCorpus.table(confusion)));
    }

    @Test
    void listedDisagreementsAreCorpusCases() {
        Map<String, ConformanceCorpus.Case> byId = new TreeMap<>();
        cases().forEach(c -> byId.put(c.id(), c));
        for (String id : knownDisagreements().keySet()) {
            assertTrue(byId.containsKey(id), () -> id + " in " + DISAGREEMENTS + " is not a corpus case");
        }
    }

    /**
     * Not a check but a tool, excluded from the suite by its tag: regenerate the list with
     * `mvn -o test -Dtest=ConformanceTest -Dgroups=tool -DexcludedTestGroups=none`.
     */
    @Test
    @org.junit.jupiter.api.Tag("tool")
    void writeDisagreements() throws IOException {
        // Reasons written by hand (an analysis, not ptxas's message) survive regeneration.
        Map<String, String> previous = Files.exists(DISAGREEMENTS) ? knownDisagreements() : Map.of();
        List<String> lines = new ArrayList<>();
        lines.add("id\tptxas\tptxrun\treason");
        for (ConformanceCorpus.Case c : cases()) {
            ConformanceCorpus.Verdict v = ConformanceCorpus.verdict(c);
            if (!v.agrees()) {
                lines.add(disagreementLine(previous, c.id(), c.ptxasAccepts(), c.ptxasMessage(), v.accepts(),
                        v.firstError()));
            }
        }
        Files.createDirectories(DISAGREEMENTS.getParent());
        Files.write(DISAGREEMENTS, lines);
        ConformanceTest.forgetDisagreementList(DISAGREEMENTS);
        assertEquals(lines.size() - 1, knownDisagreements().size());
    }
}
