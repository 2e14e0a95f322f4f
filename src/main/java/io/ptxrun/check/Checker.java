package io.ptxrun.check;

import io.ptxrun.ast.Module;
import io.ptxrun.ast.Opcode;
import io.ptxrun.diag.Diagnostic;
import io.ptxrun.diag.Diagnostics;
import io.ptxrun.diag.SourceMap;
import io.ptxrun.diag.SourceText;
import io.ptxrun.isa.InstructionSet;
import io.ptxrun.isa.Target;
import io.ptxrun.syntax.PtxParser;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Everything `ptxrun check` verifies about one file, in pipeline order. */
public final class Checker {
    private Checker() {}

    private static boolean preparing;

    /**
     * Prepares the rules of the opcodes that compiler output uses in most modules (each is in more
     * than 70 % of the nvcc modules of testdata) on another thread while the module is read and
     * parsed: their tables are built and their forms parsed, so that a short run has them ready
     * when its first module is checked. The rules of the other opcodes are prepared when a module
     * uses them. The opcodes are named in the thread's own code, so that the initialisation of
     * Opcode and Qualifier happens there too, beside the reading of the module. (The parser is not
     * warmed up there as well: that parse would run beside the real one rather than before it, and
     * kept the tables from being ready in time.) Only the first call starts the thread.
     */
    public static synchronized void prepareInBackground() {
        if (preparing) {
            return;
        }
        preparing = true;
        Thread t = new Thread(() -> {
            // In the order in which a kernel tends to need them (its parameters are loaded first).
            InstructionSet.prepare(Opcode.LD, Opcode.MOV, Opcode.CVTA, Opcode.ST, Opcode.ADD, Opcode.SETP, Opcode.BRA,
                    Opcode.RET, Opcode.MUL, Opcode.SHL, Opcode.CVT, Opcode.SHR, Opcode.AND, Opcode.SUB, Opcode.OR,
                    Opcode.MAD);
        }, "ptxrun-prepare");
        t.setDaemon(true);
        t.start();
    }

    /** All diagnostics of a file: syntax first; the later checks run on a module that parsed. */
    public static List<Diagnostic> check(SourceText source) {
        return check(source, Optional.empty());
    }

    /**
     * As {@link #check(SourceText)}, for a module to be assembled for the GPU gpu (`--target`,
     * like `ptxas --gpu-name`): its `.target` must be compatible with that GPU.
     */
    public static List<Diagnostic> check(SourceText source, Optional<Target> gpu) {
        PtxParser.Parsed<Module> parsed = PtxParser.parseModule(source.name(), source.text());
        List<Diagnostic> all = new ArrayList<>(parsed.diagnostics());
        if (parsed.ok() && parsed.value() != null) {
            all.addAll(check(parsed.value(), gpu));
        }
        return byPosition(all);
    }

    /**
     * The checks after parsing, for a module parsed already (a run checks the module it is about
     * to run): structure and names, calls, address spaces, the target, instruction forms. For a
     * module with line information ({@code .loc}), a diagnostic at an instruction carries its CUDA
     * location as notes, as run diagnostics do.
     */
    public static List<Diagnostic> check(Module module, Optional<Target> gpu) {
        Diagnostics more = new Diagnostics();
        new DeclarationChecker(more).check(module);
        new CallChecker(more).check(module);
        new AddressSpaceChecker(more).check(module);
        new ModuleTargetChecker(more).check(module, gpu)
                .ifPresent(context -> new InstructionChecker(more, context).check(module));
        return byPosition(SourceMap.of(module).annotate(more.list()));
    }

    /**
     * Diagnostics in the order of the places they name. The sort is stable, so at one place the
     * earlier stage's finding (a syntax or declaration error, the root cause) stays first.
     */
    public static List<Diagnostic> byPosition(List<Diagnostic> diagnostics) {
        List<Diagnostic> sorted = new ArrayList<>(diagnostics);
        sorted.sort(Checker::comparePositions);
        return sorted;
    }

    /**
     * The order of byPosition, written out: Comparator.comparing(...).thenComparingInt(...) spins
     * its lambdas at run time, a visible cost in a short check.
     */
    private static int comparePositions(Diagnostic a, Diagnostic b) {
        int byFile = a.pos().file().compareTo(b.pos().file());
        if (byFile != 0) {
            return byFile;
        }
        int byLine = Integer.compare(a.pos().line(), b.pos().line());
        return byLine != 0 ? byLine : Integer.compare(a.pos().column(), b.pos().column());
    }
}
