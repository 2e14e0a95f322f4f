package io.ptxrun.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ptxrun.check.Checker;
import io.ptxrun.diag.Diagnostic;
import io.ptxrun.diag.DiagnosticRenderer;
import io.ptxrun.diag.SarifRenderer;
import io.ptxrun.diag.SourceFiles;
import io.ptxrun.diag.SourceText;
import io.ptxrun.isa.Target;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** `ptxrun check FILE...`: report every problem of each file; exit 1 if any file has errors. */
final class CheckCommand {
    static final String DESCRIPTION = "Check PTX files for syntax, declaration and ISA errors (instruction forms, "
            + ".version and .target requirements) without running them.";

    private static final CommandLine OPTIONS = new CommandLine("ptxrun check", List.of(
            new CommandLine.Option("--format", "FORMAT", "Output format: text, json, sarif (default: text)."),
            new CommandLine.Option("--target", "sm_XY", "Check for this GPU, like ptxas --gpu-name: the module's "
                    + ".target must be one that can be assembled for it (features are still judged against the "
                    + "module's .target)."),
            new CommandLine.Option("--Werror", null, "Treat warnings as errors.")));

    private enum Format { text, json, sarif }

    private final List<Path> files = new ArrayList<>();
    private Format format = Format.text;
    private String target;
    private boolean warningsAreErrors;

    private CheckCommand() {}

    /** Runs `check` with args[0] == "check". */
    static int run(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine.Parsed parsed;
        CheckCommand command = new CheckCommand();
        try {
            parsed = OPTIONS.parse(args, 1, Integer.MAX_VALUE);
            if (parsed.help) {
                out.print(help());
                return ExitCode.OK;
            }
            if (parsed.version) {
                out.println(Main.version());
                return ExitCode.OK;
            }
            if (parsed.positional.isEmpty()) {
                throw new CommandLine.UsageException("Missing required parameter: 'FILE'");
            }
            parsed.positional.forEach(f -> command.files.add(Path.of(f)));
            String format = parsed.value("--format");
            if (format != null) {
                try {
                    command.format = Format.valueOf(format);
                } catch (IllegalArgumentException e) {
                    throw CommandLine.invalid("--format", "expected one of [text, json, sarif] (case-sensitive) but was '"
                            + format + "'");
                }
            }
            command.target = parsed.value("--target");
            command.warningsAreErrors = parsed.flag("--Werror");
        } catch (java.nio.file.InvalidPathException e) {
            return Main.usageError(OPTIONS, new CommandLine.UsageException(e.getMessage()), err);
        } catch (CommandLine.UsageException e) {
            return Main.usageError(OPTIONS, e, err);
        }
        return command.check(out, err);
    }

    private static String help() {
        StringBuilder sb = new StringBuilder("Usage: ptxrun check [OPTIONS] FILE...\n");
        CommandLine.wrap(sb, DESCRIPTION, 0, 0);
        sb.append(OPTIONS.optionsHelp("FILE...", "PTX files to check ('-': standard input)."));
        return sb.toString();
    }

    private int check(PrintWriter out, PrintWriter err) {
        Optional<Target> gpu = Optional.empty();
        if (target != null) {
            gpu = Target.parse(target);
            if (gpu.isEmpty()) {
                err.println("ptxrun: error: --target " + target + " is not a known architecture (sm_XY, sm_XYa, sm_XYf)");
                return ExitCode.USAGE;
            }
        }
        Checker.prepareInBackground();
        boolean failed = false;
        boolean unreadable = false;
        List<ObjectNode> jsonFiles = new ArrayList<>();
        Map<String, List<Diagnostic>> sarifFiles = new LinkedHashMap<>();
        for (Path file : files) {
            SourceText source;
            try {
                source = Inputs.read(file);
            } catch (Inputs.InputException e) {
                err.println("ptxrun: error: " + e.getMessage());
                unreadable = true;
                continue;
            }
            List<Diagnostic> diagnostics = Checker.check(source, gpu);
            boolean bad = false;
            for (Diagnostic d : diagnostics) {
                bad |= d.isError() || warningsAreErrors;
            }
            failed |= bad;
            if (format == Format.json) {
                jsonFiles.add(DiagnosticRenderer.json(file.toString(), diagnostics, warningsAreErrors));
            } else if (format == Format.sarif) {
                sarifFiles.put(file.toString(), diagnostics);
            } else {
                SourceFiles cudaFiles = SourceFiles.besides(Inputs.isStandardInput(file) ? null : file);
                for (Diagnostic d : diagnostics) {
                    err.print(DiagnosticRenderer.text(d, source, cudaFiles));
                }
            }
        }
        if (format == Format.json) {
            ObjectNode root = DiagnosticRenderer.mapper().createObjectNode();
            root.putArray("files").addAll(jsonFiles);
            out.println(root.toPrettyString());
        } else if (format == Format.sarif) {
            out.println(SarifRenderer.sarif(sarifFiles, ToolVersion.number()).toPrettyString());
        }
        return unreadable ? ExitCode.USAGE : failed ? ExitCode.INPUT_ERROR : ExitCode.OK;
    }
}
