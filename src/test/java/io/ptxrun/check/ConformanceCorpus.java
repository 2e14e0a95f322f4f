package io.ptxrun.check;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ptxrun.TestData;
import io.ptxrun.diag.Diagnostic;
import io.ptxrun.diag.SourceText;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The ptxas-labelled conformance corpus (testdata/conformance/*.jsonl.gz, plus the surrounding-ISA
 * cases of testdata/check/*.jsonl.gz in the same format) and the verdicts ptxrun gives for it.
 */
final class ConformanceCorpus {
    static final Path DIR = TestData.ROOT.resolve("conformance");
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One labelled module. */
    record Case(String id, String family, String target, String version, String ptx, boolean ptxasAccepts,
                String ptxasMessage) {
        @Override
        public String toString() {
            return id;
        }
    }

    /** What ptxrun says about a case: accepted, or the first error. */
    record Verdict(Case c, boolean accepts, Diagnostic firstError) {
        boolean agrees() {
            return accepts == c.ptxasAccepts();
        }
    }

    private ConformanceCorpus() {}

    static List<Case> load() {
        List<Case> all = new ArrayList<>();
        List<Path> files = new ArrayList<>(TestData.jsonlFiles("conformance"));
        files.addAll(TestData.jsonlFiles("check"));
        for (Path file : files) {
            String family = TestData.family(file);
            try {
                for (String line : TestData.lines(file)) {
                    if (line.isBlank()) {
                        continue;
                    }
                    JsonNode n = JSON.readTree(line);
                    all.add(new Case(n.get("id").asText(), family, n.get("target").asText(),
                            n.get("version").asText(), n.get("ptx").asText(),
                            n.get("ptxas").asText().equals("accept"), n.path("message").asText("")));
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return all;
    }

    static Verdict verdict(Case c) {
        List<Diagnostic> ds = Checker.check(new SourceText(c.id(), c.ptx()));
        Diagnostic first = ds.stream().filter(Diagnostic::isError).findFirst().orElse(null);
        return new Verdict(c, first == null, first);
    }

    /** Confusion counts per family: [ptxas accept & ptxrun accept, acc/rej, rej/acc, rej/rej]. */
    static Map<String, int[]> confusion(List<Verdict> verdicts) {
        Map<String, int[]> out = new TreeMap<>();
        for (Verdict v : verdicts) {
            for (String key : List.of(v.c().family(), "ALL")) {
                int[] m = out.computeIfAbsent(key, k -> new int[4]);
                m[(v.c().ptxasAccepts() ? 0 : 2) + (v.accepts() ? 0 : 1)]++;
            }
        }
        return out;
    }

    static String table(Map<String, int[]> confusion) {
        StringBuilder sb = new StringBuilder(String.format("%-22s %7s %6s %6s %6s %6s %8s%n",
                "family", "cases", "AA", "AR", "RA", "RR", "agree"));
        confusion.forEach((k, m) -> {
            int n = m[0] + m[1] + m[2] + m[3];
            sb.append(String.format("%-22s %7d %6d %6d %6d %6d %7.2f%%%n", k, n, m[0], m[1], m[2], m[3],
                    100.0 * (m[0] + m[3]) / n));
        });
        return sb.append("(AA: both accept, AR: ptxas accepts/ptxrun rejects, RA: ptxas rejects/ptxrun accepts)\n")
                .toString();
    }

    /** Developer entry point: prints the confusion table and every disagreement. */
    public static void main(String[] args) {
        long t0 = System.nanoTime();
        List<Case> cases = load();
        long t1 = System.nanoTime();
        List<Verdict> vs = cases.stream().map(ConformanceCorpus::verdict).toList();
        long t2 = System.nanoTime();
        System.out.print(table(confusion(vs)));
        System.out.printf("load %.0f ms, check %.0f ms (%.1f us/case)%n", (t1 - t0) / 1e6, (t2 - t1) / 1e6,
                (t2 - t1) / 1e3 / cases.size());
        String filter = args.length > 0 ? args[0] : "";
        for (Verdict v : vs) {
            if (!v.agrees() && v.c().id().contains(filter)) {
                System.out.println((v.c().ptxasAccepts() ? "AR " : "RA ") + v.c().id() + " | "
                        + (v.accepts() ? v.c().ptxasMessage() : v.firstError()));
            }
        }
    }
}
