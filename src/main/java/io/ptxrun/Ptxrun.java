package io.ptxrun;

import io.ptxrun.ast.Module;
import io.ptxrun.check.Checker;
import io.ptxrun.cli.KernelRunner;
import io.ptxrun.diag.Diagnostic;
import io.ptxrun.diag.SourceText;
import io.ptxrun.exec.KernelLaunch;
import io.ptxrun.isa.Target;
import io.ptxrun.launch.LaunchArgs;
import io.ptxrun.launch.LaunchFile;
import io.ptxrun.launch.RunResult;
import io.ptxrun.syntax.PtxParser;
import java.util.List;
import java.util.Optional;

/**
 * ptxrun as a library: parse and check PTX, and run a kernel launch described in code or by a
 * launch file, the same way the command line does (a run validates the module first).
 *
 * <pre>{@code
 * String ptx = Files.readString(Path.of("kernel.ptx"));
 * List<Diagnostic> problems = Ptxrun.check("kernel.ptx", ptx);        // empty when valid
 * LaunchFile launch = Ptxrun.launch("reduce_sum_shared", "4", "256",
 *         "in=s32[1024]:iota", "out=s32[4]:0", "s32:1024");         // as --grid/--block/--arg
 * RunResult result = Ptxrun.run("kernel.ptx", ptx, launch);
 * result.status();                     // RunStatus.OK, TRAP, DEADLOCK, TIMEOUT or ERROR
 * result.buffers().get("out");         // ResultBuffer: type and raw elements
 * result.printedText();                // what device printf printed
 * }</pre>
 */
public final class Ptxrun {
    private Ptxrun() {}

    /** A module that does not parse or check, or a launch that does not fit it; carries the diagnostics. */
    public static final class InvalidInput extends Exception {
        private final List<Diagnostic> diagnostics;

        InvalidInput(String message, List<Diagnostic> diagnostics) {
            super(message, null, false, false);
            this.diagnostics = List.copyOf(diagnostics);
        }

        /** Each problem with its file, line, column, message and rule. */
        public List<Diagnostic> diagnostics() {
            return diagnostics;
        }
    }

    /** The module's AST, or InvalidInput with the syntax errors. */
    public static Module parse(String name, String ptx) throws InvalidInput {
        PtxParser.Parsed<Module> parsed = PtxParser.parseModule(name, ptx);
        if (!parsed.ok()) {
            throw new InvalidInput(name + " does not parse", parsed.diagnostics());
        }
        return parsed.value();
    }

    /** What {@code ptxrun check} reports for the module (errors and warnings, by position). */
    public static List<Diagnostic> check(String name, String ptx) {
        return Checker.check(new SourceText(name, ptx));
    }

    /** As {@link #check(String, String)}, for a GPU ({@code "sm_90a"}) as {@code --target} does. */
    public static List<Diagnostic> check(String name, String ptx, String gpu) {
        Target target = Target.parse(gpu).orElseThrow(() -> new IllegalArgumentException("unknown GPU " + gpu));
        return Checker.check(new SourceText(name, ptx), Optional.of(target));
    }

    /** A launch file's text (the JSON of the launch format) as a launch. */
    public static LaunchFile launch(String json) {
        return LaunchFile.parse(json);
    }

    /**
     * A launch as the command-line flags describe one: the kernel (null: the only .entry), grid
     * and block ({@code "4"}, {@code "16,16"}), and arguments in parameter order
     * ({@code "in=s32[1024]:iota"}, {@code "w=f32:[1,2.5]"}, {@code "u32:1024"}).
     */
    public static LaunchFile launch(String kernel, String grid, String block, String... args) {
        return LaunchArgs.of(kernel, grid, block, null, null, List.of(args), null).toLaunchFile();
    }

    /** Checks the module, then runs the launch with the default limits (10^9 thread-instructions). */
    public static RunResult run(String name, String ptx, LaunchFile launch) throws InvalidInput {
        return run(name, ptx, launch, KernelLaunch.Limits.DEFAULT);
    }

    /** As {@link #run(String, String, LaunchFile)} with limits (budget, schedule seed, CTA threads). */
    public static RunResult run(String name, String ptx, LaunchFile launch, KernelLaunch.Limits limits)
            throws InvalidInput {
        Module module = parse(name, ptx);
        List<Diagnostic> problems = Checker.check(module, Optional.empty());
        if (problems.stream().anyMatch(Diagnostic::isError)) {
            throw new InvalidInput(name + " does not check", problems);
        }
        try {
            return KernelRunner.run(module, launch, limits);
        } catch (KernelRunner.LaunchMismatch e) {
            throw new InvalidInput(e.getMessage(), List.of());
        }
    }
}
