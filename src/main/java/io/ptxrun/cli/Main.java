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

/**
 * `ptxrun FILE [launch options]` runs one kernel launch; `ptxrun check FILE...` validates. Exit
 * codes are in {@link ExitCode}.
 */
public final class Main {
    private static final CommandLine OPTIONS = new CommandLine("ptxrun", List.of(
            new CommandLine.Option("--launch", "JSON", "Launch file (grid, block, buffers, params)."),
            new CommandLine.Option("--kernel", "NAME", "The .entry to launch (default: the only one)."),
            new CommandLine.Option("--grid", "X[,Y[,Z]]", "CTAs per grid."),
            new CommandLine.Option("--block", "X[,Y[,Z]]", "Threads per CTA."),
            new CommandLine.Option("--cluster", "X[,Y[,Z]]", "CTAs per cluster."),
            new CommandLine.Option("--shared-bytes", "N", "Dynamic shared memory in bytes."),
            new CommandLine.Option("--arg", "ARG", "A kernel argument, in order (repeated): NAME=TYPE[COUNT]:INIT "
                    + "(a buffer: INIT is a number, iota or random:SEED), NAME=TYPE:[V1,V2,...], or TYPE:VALUE (a scalar)."),
            new CommandLine.Option("--dump", "NAME", "Buffers to print (repeated; default: all)."),
            new CommandLine.Option("--json", null, "Print exactly the result JSON on stdout."),
            new CommandLine.Option("--max-instructions", "N",
                    "Stop with status timeout after N thread-instructions (default: 1000000000)."),
            new CommandLine.Option("--max-threads", "N", "Refuse a grid of more than N threads (default: 2147483647)."),
            new CommandLine.Option("--max-memory", "BYTES", "Refuse to simulate more than BYTES of memory (buffers, "
                    + "module variables, shared and local memory of the CTAs in flight); K, M and G suffixes (default: 1G)."),
            new CommandLine.Option("--max-seconds", "S",
                    "Stop with status timeout after S seconds of wall-clock time (0: none; default: 600)."),
            new CommandLine.Option("--schedule", "SCHEDULE", "Thread schedule: deterministic (default) or random:SEED."),
            new CommandLine.Option("--async-copies", "TIMING", "When asynchronous copies land: eager (at issue), lazy "
                    + "(default: at the last legal moment, so premature reads see stale data) or random:SEED."),
            new CommandLine.Option("--warn-only", null,
                    "Report undefined behaviour of synchronization instructions as warnings and keep going."),
            new CommandLine.Option("--no-hazards", null, "Turn the hazard detector off (races, async-copy ordering,"
                    + " divergent barriers, uninitialized shared memory)."),
            new CommandLine.Option("--compile", "hot|all|none", "Which straight-line code to compile to JVM bytecode:"
                    + " what runs often (default), all of it, or none (every instruction interpreted). Results are the same."),
            new CommandLine.Option("--target", "sm_XY",
                    "Check the module for this GPU before running it, as `check --target` does."),
            new CommandLine.Option("--printf", "FORM", "Device printf output: threads (default: each line after the CTA "
                    + "and thread that printed it, in a fixed order) or plain (the text only, as the GPU prints it)."),
            new CommandLine.Option("--trace", "FILE",
                    "Write a timeline of the run (Chrome/Perfetto trace-event JSON, a track per warp) to FILE."),
            new CommandLine.Option("--cta-threads", "N", "Threads that run independent CTAs at once (default 0: one per "
                    + "processor; 1: one CTA at a time).")));

    private Path file;
    private Path launchFile;
    private String kernel;
    private String grid;
    private String block;
    private String cluster;
    private String sharedBytes;
    private List<String> args;
    private List<String> dump;
    private boolean json;
    private long maxInstructions;
    private long maxThreads;
    private long maxMemory;
    private long maxSeconds;
    private String schedule;
    private String asyncCopies;
    private boolean warnOnly;
    private boolean noHazards;
    private String compile;
    private String target;
    private String printfForm;
    private Path traceFile;
    private int ctaThreads;

    /** Warp turns a trace keeps (about 100 bytes each in the file). */
    private static final int TRACE_TURNS = 2_000_000;

    public static void main(String[] args) {
        if (args.length > 0 && !args[0].startsWith("-")) {
            // A check or a run (not --help or --version): the rule tables are built on the
            // other core while the command line is parsed and the module read and parsed.
            Checker.prepareInBackground();
        }
        int code = run(args);
        if (args.length > 0 && args[0].equals("check")) {
            // A check registers no shutdown hooks, and its output is flushed: it ends at once.
            // (System.exit first looks for a logger to report the exit to, which loads and
            // configures java.util.logging, several milliseconds of a short check.)
            Runtime.getRuntime().halt(code);
        }
        System.exit(code);
    }

    /** Runs the command line and returns the exit code (used by tests as well). */
    public static int run(String... args) {
        PrintWriter out = writer(System.out, "sun.stdout.encoding");
        PrintWriter err = writer(System.err, "sun.stderr.encoding");
        try {
            if (args.length > 0 && args[0].equals("check")) {
                return CheckCommand.run(args, out, err);
            }
            CommandLine.Parsed parsed;
            try {
                parsed = OPTIONS.parse(args, 0, 1);
            } catch (CommandLine.UsageException e) {
                return usageError(OPTIONS, e, err);
            }
            if (parsed.help) {
                out.print(help());
                return ExitCode.OK;
            }
            if (parsed.version) {
                out.println(version());
                return ExitCode.OK;
            }
            Main main = new Main();
            try {
                main.set(parsed);
            } catch (java.nio.file.InvalidPathException e) {
                return usageError(OPTIONS, new CommandLine.UsageException(e.getMessage()), err);
            } catch (CommandLine.UsageException e) {
                return usageError(OPTIONS, e, err);
            }
            return main.runKernel(out, err);
        } catch (OutOfMemoryError e) {
            // What held the memory is unreachable by now, so one more line can be printed.
            err.println("ptxrun: error: out of memory (Java heap " + (Runtime.getRuntime().maxMemory() >> 20)
                    + " MiB); lower --max-memory or give Java more heap (-Xmx)");
            return ExitCode.OUT_OF_RESOURCES;
        } catch (StackOverflowError e) {
            err.println("ptxrun: error: stack overflow: the input nests too deeply");
            return ExitCode.OUT_OF_RESOURCES;
        } catch (RuntimeException e) {
            err.println("ptxrun: internal error: " + e);
            return ExitCode.USAGE;
        } finally {
            out.flush();
            err.flush();
        }
    }

    /** A writer on stdout or stderr in the encoding the JVM gives for it (the default charset when none). */
    private static PrintWriter writer(java.io.OutputStream stream, String encodingProperty) {
        String encoding = System.getProperty(encodingProperty);
        java.nio.charset.Charset charset = java.nio.charset.Charset.defaultCharset();
        if (encoding != null && java.nio.charset.Charset.isSupported(encoding)) {
            charset = java.nio.charset.Charset.forName(encoding);
        }
        return new PrintWriter(new java.io.BufferedWriter(new java.io.OutputStreamWriter(stream, charset)), true);
    }

    /** Prints a usage error and where help is, and gives the exit code for it. */
    static int usageError(CommandLine command, CommandLine.UsageException e, PrintWriter err) {
        err.println("ptxrun: error: " + e.getMessage());
        err.println("Try '" + command.name() + " --help' for more information.");
        return ExitCode.USAGE;
    }

    static String version() {
        return "ptxrun " + ToolVersion.number() + " (PTX ISA " + ToolVersion.PTX_ISA + ")";
    }

    private static String help() {
        StringBuilder sb = new StringBuilder("Usage: ptxrun [OPTIONS] FILE\n"
                + "       ptxrun check [OPTIONS] FILE...\n"
                + "Parse, check and run PTX kernels without a GPU.\n");
        CommandLine.wrap(sb, "Runs one launch of a kernel of FILE, described by a launch file (--launch) or by flags.",
                0, 0);
        sb.append(OPTIONS.optionsHelp("FILE", "PTX module to run ('-': standard input)."));
        sb.append("Commands:\n  check  ");
        CommandLine.wrap(sb, CheckCommand.DESCRIPTION, 9, 11);
        return sb.toString();
    }

    private void set(CommandLine.Parsed p) throws CommandLine.UsageException {
        file = p.positional.isEmpty() ? null : Path.of(p.positional.get(0));
        launchFile = p.has("--launch") ? Path.of(p.value("--launch")) : null;
        kernel = p.value("--kernel");
        grid = p.value("--grid");
        block = p.value("--block");
        cluster = p.value("--cluster");
        sharedBytes = p.value("--shared-bytes");
        args = p.values("--arg");
        dump = p.values("--dump");
        json = p.flag("--json");
        maxInstructions = p.longValue("--max-instructions", 1_000_000_000L);
        maxThreads = p.longValue("--max-threads", Integer.MAX_VALUE);
        maxMemory = p.has("--max-memory") ? byteSize(p.value("--max-memory")) : 1L << 30;
        maxSeconds = p.longValue("--max-seconds", 600);
        schedule = p.has("--schedule") ? p.value("--schedule") : "deterministic";
        asyncCopies = p.has("--async-copies") ? p.value("--async-copies") : "lazy";
        warnOnly = p.flag("--warn-only");
        noHazards = p.flag("--no-hazards");
        compile = p.has("--compile") ? p.value("--compile") : "hot";
        target = p.value("--target");
        printfForm = p.has("--printf") ? p.value("--printf") : "threads";
        traceFile = p.has("--trace") ? Path.of(p.value("--trace")) : null;
        ctaThreads = p.intValue("--cta-threads", 0);
    }

    /** A byte count: digits with an optional K, M or G (powers of 1024). */
    static long byteSize(String text) throws CommandLine.UsageException {
        int digits = 0;
        while (digits < text.length() && text.charAt(digits) >= '0' && text.charAt(digits) <= '9') {
            digits++;
        }
        String suffix = text.substring(digits).toUpperCase(java.util.Locale.ROOT);
        int shift = switch (suffix) {
            case "K" -> 10;
            case "M" -> 20;
            case "G" -> 30;
            case "" -> 0;
            default -> -1;
        };
        if (digits == 0 || digits > 18 || shift < 0) {
            throw CommandLine.invalid("--max-memory", "expected a byte count such as 512M or 2G, got '" + text + "'");
        }
        long n = Long.parseLong(text.substring(0, digits));
        if (n > Long.MAX_VALUE >> shift) {
            throw CommandLine.invalid("--max-memory", "'" + text + "' is too large");
        }
        return n << shift;
    }

    private int runKernel(PrintWriter out, PrintWriter err) {
        if (file == null) {
            err.print(help());
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
}
