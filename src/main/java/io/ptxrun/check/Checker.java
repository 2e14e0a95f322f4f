package io.ptxrun.check;

import io.ptxrun.ast.Module;
import io.ptxrun.diag.Diagnostic;
import io.ptxrun.diag.Diagnostics;
import io.ptxrun.diag.SourceText;
import io.ptxrun.syntax.PtxParser;
import java.util.ArrayList;
import java.util.List;

/** Everything `ptxrun check` verifies about one file, in pipeline order. */
public final class Checker {
    private Checker() {}

    /** All diagnostics of a file: syntax first; the later checks run on a module that parsed. */
    public static List<Diagnostic> check(SourceText source) {
        PtxParser.Parsed<Module> parsed = PtxParser.parseModule(source.name(), source.text());
        List<Diagnostic> all = new ArrayList<>(parsed.diagnostics());
        if (parsed.ok() && parsed.value() != null) {
            Diagnostics more = new Diagnostics();
            new DeclarationChecker(more).check(parsed.value());
            all.addAll(more.list());
        }
        return all;
    }
}
