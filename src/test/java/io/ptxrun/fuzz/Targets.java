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

    /** The targets by name, as the campaign script and the regression folders call them. */
    static final Map<String, java.util.function.Consumer<byte[]>> ALL = Map.of(
            "parse-bytes", Targets::parseBytes,
            "parse-mutated", Targets::parseMutated,
            "check-mutated", Targets::checkMutated,
            "launch-bytes", Targets::launchBytes,
            "launch-mutated", Targets::launchMutated,
            "run-mutated", Targets::runMutated);

    private Targets() {}

    /** The parser and AST builder on arbitrary bytes. */
    static void parseBytes(byte[] data) {
        parse(new String(data, StandardCharsets.UTF_8));
    }

    /** The parser and AST builder on a corpus module after grammar-aware edits. */
    static void parseMutated(byte[] data) {
        Choices c = new Choices(data);
        parse(PtxMutator.mutate(c.pick(Seeds.MODULES), c, 8));
    }

    /** Parser, structure and ISA checks on a corpus module after grammar-aware edits. */
    static void checkMutated(byte[] data) {
        Choices c = new Choices(data);
        String text = PtxMutator.mutate(c.pick(Seeds.MODULES), c, 6);
        SourceText source = new SourceText("fuzz.ptx", text);
        render(Checker.check(source), source);
    }

    /** The launch-file reader on arbitrary bytes. */
    static void launchBytes(byte[] data) {
        readLaunch(new String(data, StandardCharsets.UTF_8));
    }

    /** The launch-file reader on a launch file of testdata/ after JSON-aware edits. */
    static void launchMutated(byte[] data) {
        Choices c = new Choices(data);
        readLaunch(JsonMutator.mutate(c.pick(Seeds.LAUNCH_FILES), c, 4));
    }

    /**
     * The engine on a run case whose kernel (and sometimes launch file) was edited, when the edited
     * kernel still checks clean, under {@link #RUN_LIMITS}.
     */
    static void runMutated(byte[] data) {
        Choices c = new Choices(data);
        Seeds.RunCase rc = c.pick(Seeds.RUN_CASES);
        String ptx = PtxMutator.mutate(rc.ptx(), c, 3);
        String json = c.below(4) == 0 ? JsonMutator.mutate(rc.launch(), c, 1) : rc.launch();
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
