package io.ptxrun.cli;

import io.ptxrun.ast.Module;
import io.ptxrun.check.Checker;
import io.ptxrun.diag.SourceFiles;
import io.ptxrun.diag.SourceMap;
import io.ptxrun.isa.Target;
import io.ptxrun.launch.DeviceOutput;
import java.nio.file.Files;
import java.util.Optional;
import io.ptxrun.ast.SourcePos;
import io.ptxrun.diag.Diagnostic;
import io.ptxrun.diag.DiagnosticRenderer;
import io.ptxrun.diag.SourceText;
import io.ptxrun.exec.Compilation;
import io.ptxrun.exec.KernelLaunch;
import io.ptxrun.exec.Progress;
import io.ptxrun.exec.Trace;
import io.ptxrun.launch.Dim3;
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

    @Option(names = "--no-hazards", description = "Turn the hazard detector off (races, async-copy ordering,"
            + " divergent barriers, uninitialized shared memory).")
    boolean noHazards;

    @Option(names = "--compile", paramLabel = "hot|all|none", defaultValue = "hot",
            description = "Which straight-line code to compile to JVM bytecode: what runs often (default), all of"
                    + " it, or none (every instruction interpreted). Results are the same.")
    String compile;

    @Option(names = "--target", paramLabel = "sm_XY",
            description = "Check the module for this GPU before running it, as `check --target` does.")
    String target;

    @Option(names = "--printf", paramLabel = "FORM", defaultValue = "threads",
            description = {"Device printf output: threads (default: each line after the CTA and thread that",
                    "printed it, in a fixed order) or plain (the text only, as the GPU prints it)."})
    String printfForm;

    @Option(names = "--trace", paramLabel = "FILE",
            description = "Write a timeline of the run (Chrome/Perfetto trace-event JSON, a track per warp) to FILE.")
    Path traceFile;

    @Option(names = "--cta-threads", paramLabel = "N", defaultValue = "0",
            description = "Threads that run independent CTAs at once (default 0: one per processor; 1: one CTA at a time).")
    int ctaThreads;

    /** Warp turns a trace keeps (about 100 bytes each in the file). */
    private static final int TRACE_TURNS = 2_000_000;

    @Spec
    CommandSpec spec;

    public static void main(String[] args) {
        if (args.length > 0 && !args[0].startsWith("-")) {
            // A check or a run (not --help or --version): the rule tables and the parser are
            // built on the other core while the command line is being parsed.
            Checker.prepareInBackground();
        }
        System.exit(run(args));
    }

    /** Runs the command line and returns the exit code (used by tests as well). */
    public static int run(String... args) {
        CommandLine cli = new CommandLine(new Main());
        cli.setParameterExceptionHandler((ex, a) -> {
            PrintWriter err = ex.getCommandLine().getErr();
            err.println("ptxrun: error: " + ex.getMessage());
            if (ex instanceof CommandLine.UnmatchedArgumentException u) {
                closestOption(u).ifPresent(o -> err.println("Did you mean '" + o + "'?"));
            }
            err.println("Try 'ptxrun " + (ex.getCommandLine().getCommandName().equals("ptxrun") ? ""
                    : ex.getCommandLine().getCommandName() + " ") + "--help' for more information.");
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
        Compilation compilation;
        try {
            sync = SyncOptions.parse(asyncCopies, warnOnly).withHazards(!noHazards);
            compilation = Compilation.parse(compile);
        } catch (IllegalArgumentException e) {
            err.println("ptxrun: error: " + e.getMessage());
            return ExitCode.USAGE;
        }
        if (!printfForm.equals("threads") && !printfForm.equals("plain")) {
            err.println("ptxrun: error: --printf must be 'threads' or 'plain', got '" + printfForm + "'");
            return ExitCode.USAGE;
        }
        Optional<Target> gpu = Optional.empty();
        if (target != null) {
            gpu = Target.parse(target);
            if (gpu.isEmpty()) {
                err.println("ptxrun: error: --target " + target + " is not a known architecture (sm_XY, sm_XYa, sm_XYf)");
                return ExitCode.USAGE;
            }
        }
        if (launchFile != null && !Files.isRegularFile(launchFile)) {
            err.println("ptxrun: error: " + launchFile + (Files.exists(launchFile) ? ": is not a file" : ": no such file"));
            return ExitCode.USAGE;
        }
        Checker.prepareInBackground();
        SourceText source;
        try {
            source = Inputs.read(file);
        } catch (Inputs.InputException e) {
            err.println("ptxrun: error: " + e.getMessage());
            return ExitCode.USAGE;
        }
        SourceFiles cudaFiles = SourceFiles.besides(Inputs.isStandardInput(file) ? null : file);
        PtxParser.Parsed<Module> parsed = PtxParser.parseModule(source.name(), source.text());
        // A run validates first: a module that `check` rejects (for --target) does not run.
        List<Diagnostic> problems = parsed.ok()
                ? Checker.check(parsed.value(), gpu) : Checker.byPosition(parsed.diagnostics());
        for (Diagnostic d : problems) {
            err.print(DiagnosticRenderer.text(d, source, cudaFiles));
        }
        if (!parsed.ok() || problems.stream().anyMatch(Diagnostic::isError)) {
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
        Progress progress = new Progress();
        Trace trace = traceFile == null ? null : new Trace(TRACE_TURNS);
        ProgressDisplay display = new ProgressDisplay(progress, err, !json && System.console() != null);
        try {
            display.start();
            result = KernelRunner.run(parsed.value(), launch,
                    new KernelLaunch.Limits(maxInstructions, seed, ctaThreads, sync)
                            .withCosts(Math.max(1, maxThreads), Math.max(0, maxMemory), Math.max(0, maxSeconds) * 1000)
                            .withProgress(progress).withTrace(trace).withCompilation(compilation));
        } catch (KernelRunner.LaunchMismatch e) {
            err.println("ptxrun: error: " + e.getMessage());
            return ExitCode.INPUT_ERROR;
        } finally {
            display.stop();
        }
        if (trace != null) {
            try (java.io.Writer w = Files.newBufferedWriter(traceFile)) {
                Dim3 g = launch.grid();
                TraceWriter.write(trace, new int[] {g.x(), g.y(), g.z()}, SourceMap.of(parsed.value()), w);
            } catch (java.io.IOException | RuntimeException e) {
                err.println("ptxrun: error: cannot write the trace to " + traceFile + ": " + e.getMessage());
                return ExitCode.USAGE;
            }
        }
        if (json) {
            out.println(ResultJson.write(result));
        } else {
            printReadable(result, source, cudaFiles, printfForm.equals("plain"), out, err);
        }
        if (result.status() != RunStatus.OK) {
            return ExitCode.RUN_FAILED;
        }
        long hazards = result.diagnostics().stream()
                .filter(d -> d.severity() == io.ptxrun.diag.Severity.ERROR && KernelRunner.isHazard(d.rule().orElse(null)))
                .count();
        if (hazards > 0) {
            if (!json) {
                err.println("ptxrun: " + hazards + " hazard" + (hazards == 1 ? "" : "s") + " found (--warn-only"
                        + " reports them as warnings, --no-hazards turns the detector off)");
            }
            return ExitCode.HAZARDS;
        }
        return ExitCode.OK;
    }

    private static void printReadable(RunResult result, SourceText source, SourceFiles cudaFiles, boolean plain,
                                      PrintWriter out, PrintWriter err) {
        if (plain) {
            out.print(result.printedText());
        } else {
            for (DeviceOutput p : result.printed()) {
                String prefix = p.who() + ": ";
                String text = p.text().endsWith("\n") ? p.text().substring(0, p.text().length() - 1) : p.text();
                for (String line : text.split("\n", -1)) {
                    out.println(prefix + line);
                }
            }
        }
        out.flush();
        for (ResultDiagnostic d : result.diagnostics()) {
            SourcePos pos = new SourcePos(d.file().orElse(source.name()), d.line(), d.column());
            Diagnostic diagnostic = new Diagnostic(d.severity(), pos, d.message(), d.rule().orElse("exec"),
                    d.source().map(SourceMap::notes).orElse(List.of()));
            err.print(DiagnosticRenderer.text(diagnostic, source, cudaFiles));
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

    /** The option of the command that is nearest (in edit distance) to an unknown option, if any is near. */
    static Optional<String> closestOption(CommandLine.UnmatchedArgumentException u) {
        List<String> unmatched = u.getUnmatched();
        if (unmatched.isEmpty() || !unmatched.get(0).startsWith("-")) {
            return Optional.empty();
        }
        String given = unmatched.get(0).split("=", 2)[0];
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (CommandLine.Model.OptionSpec o : u.getCommandLine().getCommandSpec().options()) {
            for (String name : o.names()) {
                int d = editDistance(given, name);
                if (d < bestDistance) {
                    bestDistance = d;
                    best = name;
                }
            }
        }
        return best != null && bestDistance <= Math.max(2, given.length() / 3) ? Optional.of(best) : Optional.empty();
    }

    static int editDistance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
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
            return new String[] {"ptxrun " + ToolVersion.number() + " (PTX ISA " + ToolVersion.PTX_ISA + ")"};
        }
    }
}
