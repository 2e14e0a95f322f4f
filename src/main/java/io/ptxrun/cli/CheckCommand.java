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
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** `ptxrun check FILE...`: report every problem of each file; exit 1 if any file has errors. */
@Command(name = "check", mixinStandardHelpOptions = true,
        description = "Check PTX files for syntax, declaration and ISA errors (instruction forms, "
                + ".version and .target requirements) without running them.")
final class CheckCommand implements Callable<Integer> {
    enum Format { text, json, sarif }

    @Parameters(arity = "1..*", paramLabel = "FILE", description = "PTX files to check.")
    List<Path> files = new ArrayList<>();

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "text",
            description = "Output format: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    Format format;

    @Option(names = "--target", paramLabel = "sm_XY",
            description = "Check for this GPU, like ptxas --gpu-name: the module's .target must be one that can "
                    + "be assembled for it (features are still judged against the module's .target).")
    String target;

    @Option(names = "--Werror", description = "Treat warnings as errors.")
    boolean warningsAreErrors;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Optional<Target> gpu = Optional.empty();
        if (target != null) {
            gpu = Target.parse(target);
            if (gpu.isEmpty()) {
                err.println("ptxrun: error: --target " + target + " is not a known architecture (sm_XY, sm_XYa, sm_XYf)");
                err.flush();
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
            boolean bad = diagnostics.stream()
                    .anyMatch(d -> d.isError() || warningsAreErrors);
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
        out.flush();
        err.flush();
        return unreadable ? ExitCode.USAGE : failed ? ExitCode.INPUT_ERROR : ExitCode.OK;
    }
}
