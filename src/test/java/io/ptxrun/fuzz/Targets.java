package io.ptxrun.fuzz;

import io.ptxrun.ast.AstDump;
import io.ptxrun.ast.Module;
import io.ptxrun.ast.PtxPrinter;
import io.ptxrun.ast.SourcePos;
import io.ptxrun.check.Checker;
import io.ptxrun.cli.KernelRunner;
import io.ptxrun.diag.Diagnostic;
import io.ptxrun.diag.DiagnosticRenderer;
import io.ptxrun.diag.SourceText;
import io.ptxrun.exec.KernelLaunch;
import io.ptxrun.exec.SyncOptions;
import io.ptxrun.launch.LaunchArgs;
import io.ptxrun.launch.LaunchException;
import io.ptxrun.launch.LaunchFile;
import io.ptxrun.launch.ResultDiagnostic;
import io.ptxrun.launch.ResultJson;
import io.ptxrun.launch.RunResult;
import io.ptxrun.launch.RunStatus;
import io.ptxrun.syntax.PtxParser;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The fuzz targets and their oracle: every input ends in diagnostics or a result. A target fails
 * (a finding) on any exception other than the documented input errors, on a diagnostic that cannot
 * be rendered at its position, on a module that parses but does not print back to itself, and on
 * a run that reports {@code ok} without running every thread of its grid. Hangs are caught by the
 * run budgets below and, under the fuzzer, by its per-input timeout.
 *
 * <p>Each target takes the fuzzer's bytes; the structured ones read their decisions from them
 * ({@link Choices}), so coverage guidance steers which seed is mutated and how.
 */
final class Targets {
    /** What one mutated run may cost: a small instruction budget, one CTA thread, little memory. */
    static final KernelLaunch.Limits RUN_LIMITS = new KernelLaunch.Limits(200_000, OptionalLong.empty(), 1,
            SyncOptions.DEFAULT).withCosts(KernelLaunch.Limits.DEFAULT_MAX_THREADS, 64L << 20, 20_000);

    /**
     * The targets by name, as the campaign, the smoke test and the regression folders
     * (testdata/fuzz/regressions/TARGET/) call them. Each turns the fuzzer's bytes into its input
     * files ({@link #materialise}) and runs the oracle on them ({@link #check}); a finding is kept
     * as those files, which stay meaningful when the corpora change.
     */
    static final List<String> NAMES = List.of("parse-bytes", "parse-mutated", "check-mutated", "launch-bytes",
            "launch-mutated", "launch-args", "run-mutated");

    /** Inputs that reached the engine (checked clean and a valid launch) in run-mutated. */
    static final java.util.concurrent.atomic.AtomicLong RUNS = new java.util.concurrent.atomic.AtomicLong();

    private Targets() {}

    /** Runs the target on the fuzzer's bytes. */
    static void run(String target, byte[] data) {
        check(target, materialise(target, data));
    }

    /** The target's input files (name to text) made from the fuzzer's bytes. */
    static Map<String, String> materialise(String target, byte[] data) {
        Choices c = new Choices(data);
        String bytes = new String(data, StandardCharsets.UTF_8);
        return switch (target) {
            case "parse-bytes" -> Map.of("module.ptx", bytes);
            case "parse-mutated" -> Map.of("module.ptx", PtxMutator.mutate(c.pick(Seeds.MODULES), c, 8));
            case "check-mutated" -> Map.of("module.ptx", PtxMutator.mutate(c.pick(Seeds.MODULES), c, 6));
            case "launch-bytes" -> Map.of("launch.json", bytes);
            case "launch-mutated" -> Map.of("launch.json", JsonMutator.mutate(c.pick(Seeds.LAUNCH_FILES), c, 4));
            case "launch-args" -> Map.of("args.txt", String.join("\n", FlagMutator.mutate(c)));
            case "run-mutated" -> {
                Seeds.RunCase rc = c.pick(Seeds.RUN_CASES);
                String ptx = PtxMutator.mutate(rc.ptx(), c, 3);
                String json = c.below(4) == 0 ? JsonMutator.mutate(rc.launch(), c, 1) : rc.launch();
                yield Map.of("kernel.ptx", ptx, "launch.json", json);
            }
            default -> throw new IllegalArgumentException("no target " + target);
        };
    }

    /** The oracle of the target on its input files. */
    static void check(String target, Map<String, String> files) {
        switch (target) {
            case "parse-bytes", "parse-mutated" -> parse(files.get("module.ptx"));
            case "check-mutated" -> {
                SourceText source = new SourceText("fuzz.ptx", files.get("module.ptx"));
                render(Checker.check(source), source);
            }
            case "launch-bytes", "launch-mutated" -> readLaunch(files.get("launch.json"));
            case "launch-args" -> launchArgs(files.get("args.txt"));
            case "run-mutated" -> runKernel(files.get("kernel.ptx"), files.get("launch.json"));
            default -> throw new IllegalArgumentException("no target " + target);
        }
    }

    /**
     * The engine on a run case whose kernel (and sometimes launch file) was edited, when the edited
     * kernel still checks clean, under {@link #RUN_LIMITS}.
     */
    private static void runKernel(String ptx, String json) {
        SourceText source = new SourceText("fuzz.ptx", ptx);
        if (Checker.check(source).stream().anyMatch(Diagnostic::isError)) {
            return;
        }
        Module module = PtxParser.parseModule(source.name(), ptx).value();
        LaunchFile launch;
        try {
            launch = LaunchFile.parse(json);
        } catch (LaunchException e) {
            return;
        }
        RUNS.incrementAndGet();
        RunResult result;
        try {
            result = KernelRunner.run(module, launch, RUN_LIMITS);
        } catch (KernelRunner.LaunchMismatch e) {
            require(!e.getMessage().isBlank(), "a launch mismatch without a message");
            return;
        }
        ResultJson.write(result);
        for (ResultDiagnostic d : result.diagnostics()) {
            SourcePos pos = new SourcePos(d.file().orElse(source.name()), d.line(), d.column());
            DiagnosticRenderer.text(new Diagnostic(d.severity(), pos, d.message(), "exec"), source);
        }
        if (result.status() == RunStatus.OK) {
            long threads = ((Number) result.stats().get("threads")).longValue();
            long instructions = ((Number) result.stats().get("instructions")).longValue();
            require(instructions >= threads, "status ok after " + instructions + " thread-instructions for "
                    + threads + " threads: the grid did not run");
        } else {
            require(!result.diagnostics().isEmpty(), "status " + result.status() + " without a diagnostic");
        }
    }

    /** The command line's launch flags, one per line: --grid, --block, --cluster, --shared-bytes, --arg... */
    private static void launchArgs(String lines) {
        String[] f = lines.split("\n", -1);
        try {
            LaunchArgs.of(null, f[0], f.length > 1 ? f[1] : null, f.length > 2 && !f[2].isEmpty() ? f[2] : null,
                    f.length > 3 && !f[3].isEmpty() ? f[3] : null,
                    f.length > 4 ? List.of(f).subList(4, f.length) : List.of(), List.of()).toLaunchFile();
        } catch (LaunchException e) {
            require(e.getMessage() != null && !e.getMessage().isBlank(), "a launch error without a message");
        }
    }

    private static void parse(String text) {
        PtxParser.Parsed<Module> parsed = PtxParser.parseModule("fuzz.ptx", text);
        SourceText source = new SourceText("fuzz.ptx", text);
        render(parsed.diagnostics(), source);
        if (!parsed.ok()) {
            return;
        }
        require(parsed.value() != null, "no module and no error");
        String printed = PtxPrinter.print(parsed.value());
        PtxParser.Parsed<Module> again = PtxParser.parseModule("printed.ptx", printed);
        require(again.ok(), "the printed module does not parse: " + again.diagnostics() + "\n" + printed);
        require(AstDump.dump(parsed.value()).equals(AstDump.dump(again.value())),
                "printing and parsing again changes the module:\n" + printed);
    }

    private static void readLaunch(String json) {
        try {
            LaunchFile.parse(json);
        } catch (LaunchException e) {
            require(e.getMessage() != null && !e.getMessage().isBlank(), "a launch error without a message");
        }
    }

    private static void render(List<Diagnostic> diagnostics, SourceText source) {
        for (Diagnostic d : diagnostics) {
            require(d.message() != null && !d.message().isBlank(), "a diagnostic without a message");
            DiagnosticRenderer.text(d, source);
        }
    }

    private static void require(boolean ok, String finding) {
        if (!ok) {
            throw new AssertionError(finding);
        }
    }
}
