package io.ptxrun.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.stream.Stream;

/**
 * What the structured targets start from, read once from testdata/: PTX modules (nvcc output, the
 * ISA's examples, a sample of the ptxas-labelled conformance cases), every launch file, the run
 * cases small enough to run many times, and a dictionary of the tokens those modules use.
 */
final class Seeds {
    static final Path TESTDATA = Path.of("testdata");

    /** A run case: its kernel and launch file. */
    record RunCase(String name, String ptx, String launch) {}

    static final List<String> MODULES;
    static final List<String> LAUNCH_FILES;
    static final List<RunCase> RUN_CASES;
    /** Every distinct token of the modules, sorted (so choices mean the same on every machine). */
    static final List<String> TOKENS;

    static {
        try {
            MODULES = modules();
            LAUNCH_FILES = new ArrayList<>();
            RUN_CASES = new ArrayList<>();
            for (Path launch : sorted(files(TESTDATA, "launch.json"))) {
                String json = Files.readString(launch);
                LAUNCH_FILES.add(json);
                Path kernel = launch.resolveSibling("kernel.ptx");
                if (Files.exists(kernel) && small(json)) {
                    RUN_CASES.add(new RunCase(launch.getParent().getFileName().toString(), Files.readString(kernel), json));
                }
            }
            TreeSet<String> tokens = new TreeSet<>();
            for (String m : MODULES) {
                Matcher t = PtxMutator.TOKEN.matcher(m);
                while (t.find()) {
                    if (!t.group().isBlank() && t.group().length() < 40) {
                        tokens.add(t.group());
                    }
                }
            }
            TOKENS = List.copyOf(tokens);
            if (MODULES.isEmpty() || LAUNCH_FILES.isEmpty() || RUN_CASES.isEmpty()) {
                throw new IllegalStateException("no seeds under " + TESTDATA.toAbsolutePath()
                        + ": run from the project root");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private Seeds() {}

    private static List<String> modules() throws IOException {
        List<String> out = new ArrayList<>();
        // The smaller half of nvcc's modules: a mutated input costs time in proportion to its size.
        for (Path p : sorted(files(TESTDATA.resolve("nvcc"), ".ptx"))) {
            if (Files.size(p) <= 20_000) {
                out.add(Files.readString(p));
            }
        }
        // The ISA's examples are statements: inside a kernel they reach the module parser.
        for (Path p : sorted(files(TESTDATA.resolve("spec-examples"), ".ptx"))) {
            out.add(".version 9.0\n.target sm_100a\n.address_size 64\n\n.visible .entry example()\n{\n"
                    + Files.readString(p) + "\n}\n");
        }
        ObjectMapper json = new ObjectMapper();
        for (Path p : io.ptxrun.TestData.jsonlFiles("conformance")) {
            List<String> lines = io.ptxrun.TestData.lines(p);
            // Every 25th case: the families' forms without thousands of near copies.
            for (int i = 0; i < lines.size(); i += 25) {
                JsonNode c = json.readTree(lines.get(i));
                if (c.has("ptx")) {
                    out.add(c.get("ptx").asText());
                }
            }
        }
        return List.copyOf(out);
    }

    /** Run cases of at most 8192 threads: each mutated run stays within a small budget. */
    private static boolean small(String launch) throws IOException {
        JsonNode root = new ObjectMapper().readTree(launch);
        long threads = 1;
        for (String key : List.of("grid", "block")) {
            for (JsonNode n : root.path(key)) {
                threads *= Math.max(1, n.asLong());
            }
        }
        return threads <= 8192;
    }

    private static Stream<Path> files(Path dir, String suffix) throws IOException {
        return Files.walk(dir).filter(p -> p.getFileName().toString().endsWith(suffix));
    }

    private static List<Path> sorted(Stream<Path> paths) {
        return paths.sorted().toList();
    }
}
