package io.ptxrun.cli;

import io.ptxrun.ast.Module;
import io.ptxrun.ast.SourcePos;
import io.ptxrun.diag.Diagnostic;
import io.ptxrun.diag.DiagnosticRenderer;
import io.ptxrun.diag.SourceText;
import io.ptxrun.exec.KernelLaunch;
import io.ptxrun.exec.SyncOptions;
import io.ptxrun.launch.LaunchArgs;
import io.ptxrun.launch.LaunchException;
import io.ptxrun.launch.LaunchFile;
import io.ptxrun.launch.ResultBuffer;
import io.ptxrun.launch.ResultDiagnostic;
import io.ptxrun.launch.ResultJson;
import io.ptxrun.launch.RunResult;
import io.ptxrun.launch.RunStatus;
import io.ptxrun.syntax.PtxParser;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * `ptxrun FILE [launch options]` runs one kernel launch; `ptxrun check FILE...` validates. Exit
 * codes are in {@link ExitCode}.
 */
@Command(name = "ptxrun", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        subcommands = {CheckCommand.class}, sortOptions = false,
        description = {"Parse, check and run PTX kernels without a GPU.",
                "Runs one launch of a kernel of FILE, described by a launch file (--launch) or by flags."})
public final class Main implements Callable<Integer> {
    @Parameters(arity = "0..1", paramLabel = "FILE", description = "PTX module to run.")
    Path file;

    @Option(names = "--launch", paramLabel = "JSON", description = "Launch file (grid, block, buffers, params).")
    Path launchFile;

    @Option(names = "--kernel", paramLabel = "NAME", description = "The .entry to launch (default: the only one).")
    String kernel;

    @Option(names = "--grid", paramLabel = "X[,Y[,Z]]", description = "CTAs per grid.")
    String grid;

    @Option(names = "--block", paramLabel = "X[,Y[,Z]]", description = "Threads per CTA.")
    String block;

    @Option(names = "--cluster", paramLabel = "X[,Y[,Z]]", description = "CTAs per cluster.")
    String cluster;

    @Option(names = "--shared-bytes", paramLabel = "N", description = "Dynamic shared memory in bytes.")
    String sharedBytes;

    @Option(names = "--arg", paramLabel = "ARG", description = {"A kernel argument, in order: NAME=TYPE[COUNT]:INIT "
            + "(a buffer: INIT is a number, iota or random:SEED), NAME=TYPE:[V1,V2,...], or TYPE:VALUE (a scalar)."})
    List<String> args;

    @Option(names = "--dump", paramLabel = "NAME", description = "Buffers to print (default: all).")
    List<String> dump;

    @Option(names = "--json", description = "Print exactly the result JSON on stdout.")
    boolean json;

    @Option(names = "--max-instructions", paramLabel = "N", defaultValue = "1000000000",
            description = "Stop with status timeout after N thread-instructions (default: ${DEFAULT-VALUE}).")
    long maxInstructions;

    @Option(names = "--max-threads", paramLabel = "N", defaultValue = "2147483647",
            description = "Refuse a grid of more than N threads (default: ${DEFAULT-VALUE}).")
    long maxThreads;

    @Option(names = "--max-memory", paramLabel = "BYTES", defaultValue = "1G", converter = ByteSize.class,
            description = {"Refuse to simulate more than BYTES of memory (buffers, module variables, shared and",
                    "local memory of the CTAs in flight); K, M and G suffixes (default: ${DEFAULT-VALUE})."})
    long maxMemory;

    @Option(names = "--max-seconds", paramLabel = "S", defaultValue = "600",
            description = "Stop with status timeout after S seconds of wall-clock time (0: none; default: ${DEFAULT-VALUE}).")
    long maxSeconds;

    @Option(names = "--schedule", paramLabel = "SCHEDULE", defaultValue = "deterministic",
            description = "Thread schedule: deterministic (default) or random:SEED.")
    String schedule;

    @Option(names = "--async-copies", paramLabel = "TIMING", defaultValue = "lazy",
            description = {"When asynchronous copies land: eager (at issue), lazy (default: at the last legal",
                    "moment, so premature reads see stale data) or random:SEED."})
    String asyncCopies;

    @Option(names = "--warn-only", description = "Report undefined behaviour of synchronization instructions as"
            + " warnings and keep going.")
    boolean warnOnly;

    @Option(names = "--cta-threads", paramLabel = "N", defaultValue = "0",
            description = "Threads that run independent CTAs at once (default 0: one per processor; 1: one CTA at a time).")
    int ctaThreads;

    @Spec
    CommandSpec spec;

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the command line and returns the exit code (used by tests as well). */
    public static int run(String... args) {
        CommandLine cli = new CommandLine(new Main());
        cli.setParameterExceptionHandler((ex, a) -> {
            ex.getCommandLine().getErr().println("ptxrun: error: " + ex.getMessage());
            ex.getCommandLine().getErr().println("Try 'ptxrun --help' for more information.");
            return ExitCode.USAGE;
        });
        cli.setExecutionExceptionHandler((ex, c, parsed) -> {
            c.getErr().println("ptxrun: internal error: " + ex);
            return ExitCode.USAGE;
        });
        try {
            return cli.execute(args);
        } catch (OutOfMemoryError e) {
            // What held the memory is unreachable by now, so one more line can be printed.
            cli.getErr().println("ptxrun: error: out of memory (Java heap " + (Runtime.getRuntime().maxMemory() >> 20)
                    + " MiB); lower --max-memory or give Java more heap (-Xmx)");
            cli.getErr().flush();
            return ExitCode.OUT_OF_RESOURCES;
        } catch (StackOverflowError e) {
            cli.getErr().println("ptxrun: error: stack overflow: the input nests too deeply");
            cli.getErr().flush();
            return ExitCode.OUT_OF_RESOURCES;
        }
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try {
            return runKernel(out, err);
        } finally {
            out.flush();
            err.flush();
        }
    }

    private int runKernel(PrintWriter out, PrintWriter err) {
        if (file == null) {
            spec.commandLine().usage(err);
            return ExitCode.USAGE;
        }
        if (launchFile != null && (grid != null || block != null || args != null)) {
            err.println("ptxrun: error: give either --launch or --grid/--block/--arg, not both");
            return ExitCode.USAGE;
        }
        OptionalLong seed;
        if (schedule.equals("deterministic")) {
            seed = OptionalLong.empty();
        } else if (schedule.matches("random:[0-9]+")) {
            seed = OptionalLong.of(Long.parseLong(schedule.substring(7)));
        } else {
            err.println("ptxrun: error: --schedule must be 'deterministic' or 'random:SEED', got '" + schedule + "'");
            return ExitCode.USAGE;
        }
        if (ctaThreads < 0 || ctaThreads > KernelLaunch.Limits.MAX_CTA_THREADS) {
            err.println("ptxrun: error: --cta-threads must be 0 (one per processor) to "
                    + KernelLaunch.Limits.MAX_CTA_THREADS + ", got " + ctaThreads);
            return ExitCode.USAGE;
        }
        SyncOptions sync;
        try {
            sync = SyncOptions.parse(asyncCopies, warnOnly);
        } catch (IllegalArgumentException e) {
            err.println("ptxrun: error: " + e.getMessage());
            return ExitCode.USAGE;
        }
        SourceText source;
        try {
            source = Inputs.read(file);
        } catch (Inputs.InputException e) {
            err.println("ptxrun: error: " + e.getMessage());
            return ExitCode.USAGE;
        }
        PtxParser.Parsed<Module> parsed = PtxParser.parseModule(source.name(), source.text());
        if (!parsed.ok()) {
            for (Diagnostic d : parsed.diagnostics()) {
                err.print(DiagnosticRenderer.text(d, source));
            }
            return ExitCode.INPUT_ERROR;
        }
        LaunchFile launch;
        try {
            if (launchFile != null) {
                launch = LaunchFile.read(launchFile);
                if (kernel != null) {
                    launch = new LaunchFile(java.util.Optional.of(kernel), launch.grid(), launch.block(),
                            launch.cluster(), launch.sharedBytes(), launch.buffers(), launch.tensorMaps(),
                            launch.params(), launch.dump(), launch.tolerance(), launch.warnings());
                }
            } else {
                launch = LaunchArgs.of(kernel, grid, block, cluster, sharedBytes, args, dump).toLaunchFile();
            }
        } catch (LaunchException e) {
            err.println("ptxrun: error: " + e.getMessage());
            return ExitCode.INPUT_ERROR;
        }
        launch.warnings().forEach(w -> err.println("ptxrun: warning: " + w));
        RunResult result;
        try {
            result = KernelRunner.run(parsed.value(), launch,
                    new KernelLaunch.Limits(maxInstructions, seed, ctaThreads, sync)
                            .withCosts(Math.max(1, maxThreads), Math.max(0, maxMemory), Math.max(0, maxSeconds) * 1000));
        } catch (KernelRunner.LaunchMismatch e) {
            err.println("ptxrun: error: " + e.getMessage());
            return ExitCode.INPUT_ERROR;
        }
        if (json) {
            out.println(ResultJson.write(result));
        } else {
            printReadable(result, source, out, err);
        }
        return result.status() == RunStatus.OK ? ExitCode.OK : ExitCode.RUN_FAILED;
    }

    private static void printReadable(RunResult result, SourceText source, PrintWriter out, PrintWriter err) {
        for (ResultDiagnostic d : result.diagnostics()) {
            SourcePos pos = new SourcePos(d.file().orElse(source.name()), d.line(), d.column());
            err.print(DiagnosticRenderer.text(new Diagnostic(d.severity(), pos, d.message(), "exec"), source));
        }
        out.println("kernel " + result.kernel().orElse("?") + ": " + result.status().jsonName() + " " + result.stats());
        for (Map.Entry<String, ResultBuffer> b : result.buffers().entrySet()) {
            ResultBuffer buf = b.getValue();
            StringBuilder sb = new StringBuilder(b.getKey()).append(" (").append(buf.type().typeName())
                    .append('[').append(buf.count()).append("]):");
            int shown = Math.min(buf.count(), 256);
            for (int i = 0; i < shown; i++) {
                sb.append(' ').append(buf.type().format(buf.bits(i)));
            }
            if (shown < buf.count()) {
                sb.append(" ... (").append(buf.count() - shown).append(" more; --json prints all)");
            }
            out.println(sb);
        }
    }

    /** A byte count: digits with an optional K, M or G (powers of 1024). */
    static final class ByteSize implements CommandLine.ITypeConverter<Long> {
        @Override
        public Long convert(String text) {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d{1,18})([kKmMgG]?)").matcher(text);
            if (!m.matches()) {
                throw new CommandLine.TypeConversionException("expected a byte count such as 512M or 2G, got '" + text + "'");
            }
            int shift = switch (m.group(2).toUpperCase()) {
                case "K" -> 10;
                case "M" -> 20;
                case "G" -> 30;
                default -> 0;
            };
            long n = Long.parseLong(m.group(1));
            if (n > Long.MAX_VALUE >> shift) {
                throw new CommandLine.TypeConversionException("'" + text + "' is too large");
            }
            return n << shift;
        }
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"ptxrun 0.1.0 (PTX ISA 9.0)"};
        }
    }
}
