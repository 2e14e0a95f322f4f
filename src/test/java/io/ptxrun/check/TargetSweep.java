package io.ptxrun.check;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ptxrun.TestData;
import io.ptxrun.diag.Diagnostic;
import io.ptxrun.diag.SourceText;
import io.ptxrun.isa.Target;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The target sweep (testdata/sweep): every instruction form of the labelled corpora assembled by
 * ptxas for every target at PTX ISA 9.0, and at the versions around the one that introduced it
 * (see testdata/sweep/generate.py), with ptxrun's verdict for each module.
 */
final class TargetSweep {
    static final Path DIR = TestData.ROOT.resolve("sweep");
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The targets below sm_75 are assembled under --gpu-name sm_75, the oldest GPU ptxas 13.0 knows. */
    private static final Target OLDEST_GPU = Target.of("sm_75");

    /** One form: the corpus case it was taken from and its module. */
    record Form(String id, String source, String ptx) {
        /** The corpus family the form comes from ("mbarrier", "core-isa-arith"). */
        String family() {
            return source.substring(0, source.indexOf('/'));
        }
    }

    /** The form assembled at one version for one target, and what ptxas said. */
    record Case(Form form, String version, String target, boolean ptxasAccepts, String ptxasMessage) {
        /** The id the list of disagreements uses: form/version/target. */
        String id() {
            return form.id() + "/" + version + "/" + target;
        }

        String ptx() {
            return form.ptx().replaceFirst("(?m)^\\.version \\S+$", ".version " + version)
                    .replaceFirst("(?m)^\\.target \\S+$", ".target " + target);
        }

        Target gpu() {
            Target t = Target.of(target);
            return t.sm() < OLDEST_GPU.sm() ? OLDEST_GPU : t;
        }

        @Override
        public String toString() {
            return id();
        }
    }

    /** What ptxrun says about a case: accepted, or the first error. */
    record Verdict(Case c, boolean accepts, Diagnostic firstError) {
        boolean agrees() {
            return accepts == c.ptxasAccepts();
        }

        String describe() {
            return c.id() + " (" + c.form().source() + "): ptxas "
                    + (c.ptxasAccepts() ? "accepts" : "rejects (" + c.ptxasMessage() + ")")
                    + ", ptxrun " + (accepts ? "accepts" : "rejects: " + firstError.message());
        }
    }

    private TargetSweep() {}

    /** Every form with its cases, in the order of forms.jsonl. */
    static Map<Form, List<Case>> load() {
        try {
            Map<String, Form> forms = new LinkedHashMap<>();
            for (String line : Files.readAllLines(DIR.resolve("forms.jsonl"))) {
                JsonNode n = JSON.readTree(line);
                forms.put(n.get("form").asText(),
                        new Form(n.get("form").asText(), n.get("source").asText(), n.get("ptx").asText()));
            }
            Map<String, String> messages = new TreeMap<>();
            List<String> messageLines = Files.readAllLines(DIR.resolve("messages.tsv"));
            for (String line : messageLines.subList(1, messageLines.size())) {
                String[] f = line.split("\t", 2);
                messages.put(f[0], f[1]);
            }
            Map<Form, List<Case>> out = new LinkedHashMap<>();
            forms.values().forEach(f -> out.put(f, new ArrayList<>()));
            List<String> rows = Files.readAllLines(DIR.resolve("verdicts.tsv"));
            String[] targets = rows.get(0).split("\t");
            for (String row : rows.subList(1, rows.size())) {
                String[] f = row.split("\t", -1);
                Form form = forms.get(f[0]);
                for (int i = 2; i < f.length; i++) {
                    if (!f[i].isEmpty()) {
                        boolean accepted = f[i].equals("A");
                        out.get(form).add(new Case(form, f[1], targets[i], accepted,
                                accepted ? "" : messages.get(f[i].substring(1))));
                    }
                }
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Verdicts by case id, computed once: the per-form tests and the overall measure share them. */
    private static final Map<String, Verdict> VERDICTS = new java.util.concurrent.ConcurrentHashMap<>();

    static Verdict verdict(Case c) {
        return VERDICTS.computeIfAbsent(c.id(), id -> check(c));
    }

    private static Verdict check(Case c) {
        List<Diagnostic> ds = Checker.check(new SourceText(c.id(), c.ptx()), Optional.of(c.gpu()));
        Diagnostic first = ds.stream().filter(Diagnostic::isError).findFirst().orElse(null);
        return new Verdict(c, first == null, first);
    }

    /** Developer entry point: prints the agreement and every disagreement (optionally filtered). */
    public static void main(String[] args) {
        String filter = args.length > 0 ? args[0] : "";
        int n = 0;
        int agree = 0;
        for (List<Case> cases : load().values()) {
            for (Case c : cases) {
                Verdict v = verdict(c);
                n++;
                if (v.agrees()) {
                    agree++;
                } else if ((v.describe()).contains(filter)) {
                    System.out.println(v.describe());
                }
            }
        }
        System.out.printf("%d of %d modules agree (%.3f%%)%n", agree, n, 100.0 * agree / n);
    }
}
