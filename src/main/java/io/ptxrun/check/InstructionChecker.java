package io.ptxrun.check;

import io.ptxrun.ast.Block;
import io.ptxrun.ast.DataType;
import io.ptxrun.ast.Function;
import io.ptxrun.ast.Instruction;
import io.ptxrun.ast.Module;
import io.ptxrun.ast.Opcode;
import io.ptxrun.ast.Operand;
import io.ptxrun.ast.Qual;
import io.ptxrun.ast.Qualifier;
import io.ptxrun.ast.SourcePos;
import io.ptxrun.ast.Statement;
import io.ptxrun.diag.Diagnostics;
import io.ptxrun.isa.FeatureRule;
import io.ptxrun.isa.Form;
import io.ptxrun.isa.InstructionSet;
import io.ptxrun.isa.OperandKind;
import io.ptxrun.isa.OperandSlot;
import io.ptxrun.isa.QualifierGroup;
import io.ptxrun.isa.SpecialRegisterWidths;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Instruction legality against the rule tables of io.ptxrun.isa: an instruction must match one of
 * its opcode's forms (qualifiers, operand count and kinds, constants), and every feature it uses
 * must be available at the module's `.version` and `.target`. When no form matches, the closest
 * one explains what is wrong: every problem, at its token.
 */
public final class InstructionChecker {
    private final Diagnostics diagnostics;
    private final ModuleTargetChecker.Context context;
    /** The type of the instruction being matched (its last type qualifier), for TYPED operands. */
    private DataType instructionType;
    /** Its first type qualifier (the destination type of `cvt.dtype.atype`), for FIRST_TYPED operands. */
    private DataType firstType;
    /** Its `.v2/.v4/.v8` width, 1 without one, for ld/st values. */
    private int currentVectorWidth;

    public InstructionChecker(Diagnostics diagnostics, ModuleTargetChecker.Context context) {
        this.diagnostics = diagnostics;
        this.context = context;
    }

    /**
     * One reason a form does not fit, with its weight when choosing the closest form: a qualifier
     * the form does not know weighs most, a missing qualifier less than a wrong operand count, so
     * that `cp.async ... 16, 4, %rd4` is explained by the missing `.L2::cache_hint`. The message
     * is built only for the closest form: most forms of a family fail to match every instruction.
     */
    record Problem(SourcePos pos, String rule, Supplier<String> message, int weight) {
        static final int FOREIGN_QUALIFIER = 100;
        static final int OPERAND_COUNT = 5;
        static final int MISSING_QUALIFIER = 3;
        static final int OPERAND = 1;
    }

    /**
     * Modules with two function bodies or more, and at least this many statements in them, are
     * checked on several cores: a small module's kernels too (checking four kernels of a hundred
     * lines each took about a fifth less of the main thread's time with a second core, whose
     * start-up work is done by then); below it, the second core would start for less than it saves.
     */
    private static final int PARALLEL_STATEMENTS = 200;

    public void check(Module module) {
        List<Function> bodies = new ArrayList<>();
        int statements = 0;
        for (Function f : module.functions()) {
            if (f.body().isPresent()) {
                bodies.add(f);
                statements += f.body().get().statements().size();
            }
        }
        if (bodies.size() < 2 || statements < PARALLEL_STATEMENTS || Runtime.getRuntime().availableProcessors() < 2) {
            bodies.forEach(this::checkFunction);
            return;
        }
        // Functions are independent: each gets its own checker (the matching state is per
        // instruction) and its own list, and the lists are joined in source order.
        List<List<io.ptxrun.diag.Diagnostic>> found = bodies.parallelStream().map(f -> {
            Diagnostics local = new Diagnostics();
            new InstructionChecker(local, context).checkFunction(f);
            return local.list();
        }).toList();
        found.forEach(list -> list.forEach(diagnostics::add));
    }

    private void checkFunction(Function f) {
        checkClusterDirectives(f);
        checkBlock(f.body().get(), RegisterTable.of(f));
    }

    /** The cluster directives of a kernel (PTX ISA 11.5) exist from sm_90 on, as clusters do. */
    private void checkClusterDirectives(Function f) {
        for (io.ptxrun.ast.FunctionDirective d : f.directives()) {
            switch (d.kind()) {
                case EXPLICITCLUSTER, REQNCTAPERCLUSTER, MAXCLUSTERRANK, BLOCKSARECLUSTERS -> {
                    if (!context.target().atLeast(90)) {
                        diagnostics.error(d.pos(), "isa.target", "'" + d.kind().spelling + "' requires .target sm_90"
                                + " or higher (PTX ISA 11.5, cluster dimension directives; ptxas: \"Feature '"
                                + d.kind().spelling + "' requires .target sm_90 or higher\"); the module targets "
                                + context.target());
                    }
                }
                default -> { }
            }
        }
    }

    private void checkBlock(Block block, RegisterTable registers) {
        for (Statement s : block.statements()) {
            if (s instanceof Instruction i) {
                checkInstruction(i, registers);
            } else if (s instanceof io.ptxrun.ast.VarDecl v) {
                checkDeclaredType(v);
            } else if (s instanceof Block b) {
                checkBlock(b, registers.enter(b));
            }
        }
    }

    void checkInstruction(Instruction instruction, RegisterTable registers) {
        List<Form> forms = InstructionSet.forms(instruction.opcode());
        if (forms.isEmpty()) {
            return;
        }
        if (instruction.opcode() == Opcode.MMA && popcBeforeBitOp(instruction)) {
            return;
        }
        // Fast pass: the first form that fits wins; qualifiers are compared before operands.
        boolean[] qualifiersFit = qualifiersFit(instruction, forms);
        for (int f = 0; f < forms.size(); f++) {
            Form form = forms.get(f);
            if (!qualifiersFit[f] || !form.existsFor(context.target(), context.version())) {
                continue;
            }
            List<Problem> problems = new ArrayList<>();
            matchOperands(instruction, form, registers, problems);
            if (problems.isEmpty()) {
                warnUndefinedValues(instruction, form);
                if (form.minVersion() != null && !context.version().atLeast(form.minVersion())) {
                    diagnostics.error(instruction.pos(), "isa.version", form.feature() + " requires PTX ISA .version "
                            + form.minVersion() + " or later (" + cite(form) + ", PTX ISA Notes); the module declares"
                            + " .version " + context.version());
                }
                checkFeatures(instruction);
                checkSpecialRegisters(instruction);
                return;
            }
        }
        // No form fits: explain the instruction against the closest one, all of its problems.
        List<Problem> closest = null;
        int closestScore = Integer.MAX_VALUE;
        for (Form form : forms) {
            if (!form.existsFor(context.target(), context.version())) {
                continue;
            }
            List<Problem> problems = new ArrayList<>();
            matchQualifiers(instruction, form, problems);
            matchOperands(instruction, form, registers, problems);
            int score = 0;
            for (Problem p : problems) {
                score += p.weight();
            }
            // On a tie, the form that agrees with more of what is written first wins: for
            // `atom.exch.u32` the exch form (wrong type) rather than the add form (wrong operation).
            if (score < closestScore || score == closestScore && firstColumn(problems) > firstColumn(closest)) {
                closestScore = score;
                closest = problems;
            }
        }
        boolean mma = instruction.opcode() == Opcode.MMA || instruction.opcode() == Opcode.MMA_SP;
        Problem shape = mma ? mmaShapeProblem(instruction) : null;
        if (shape != null) {
            // A shape that the input type does not have: the closest form's other problems
            // (fragment sizes of some other shape) would only mislead.
            diagnostics.error(shape.pos(), shape.rule(), shape.message().get());
            return;
        }
        for (Problem p : closest == null ? List.<Problem>of() : closest) {
            Supplier<String> message = mma ? mmaQualifierMessage(instruction, p) : null;
            diagnostics.error(p.pos(), p.rule(), (message != null ? message : p.message()).get());
        }
    }

    /**
     * mma's .b1 bit operation is written .xor.popc or .and.popc, in that order (ptxas rejects
     * .popc.xor, "Unexpected instruction types specified for 'mma'"); the forms' qualifiers match
     * in any order, so the order is checked here. Reports it and returns true when .popc comes first.
     */
    private boolean popcBeforeBitOp(Instruction instruction) {
        int popc = -1, op = -1;
        List<Qual> qs = instruction.qualifiers();
        for (int k = 0; k < qs.size(); k++) {
            Qualifier q = qs.get(k).kind();
            if (q == Qualifier.POPC) {
                popc = k;
            } else if ((q == Qualifier.XOR || q == Qualifier.AND) && op < 0) {
                op = k;
            }
        }
        if (popc < 0 || op < 0 || popc > op) {
            return false;
        }
        diagnostics.error(qs.get(popc).pos(), "isa.qualifier", "mma's bit operation is written '" + qs.get(op).text()
                + ".popc', the operation first (PTX ISA 9.7.14.5.14 mma (spec/isa/mma.md))");
        return true;
    }

    /**
     * A plainer message for a problem at an mma qualifier that no form of the written input type
     * takes: layouts other than .row.col, and .satfinite on floating-point inputs. Null otherwise.
     */
    private static Supplier<String> mmaQualifierMessage(Instruction instruction, Problem p) {
        Qual at = null;
        for (Qual q : instruction.qualifiers()) {
            if (q.pos().equals(p.pos())) {
                at = q;
            }
        }
        if (at == null) {
            return null;
        }
        String name = instruction.has(Qualifier.SYNC) ? "mma.sync" : "mma";
        String cite = " (PTX ISA 9.7.14.5.14 mma (spec/isa/mma.md))";
        if (at.kind() == Qualifier.SATFINITE) {
            return () -> "'.satfinite' is for the integer forms of " + name + " (.s8, .u8, .s4, .u4 inputs)" + cite;
        }
        if (at.kind() == Qualifier.F16 || at.kind() == Qualifier.F32) {
            // D and C: the first and last element types written.
            List<Qual> types = new ArrayList<>();
            Qual shape = null;
            for (Qual q : instruction.qualifiers()) {
                if (MMA_TYPES.contains(q.text())) {
                    types.add(q);
                } else if (q.kind().category == Qualifier.Category.SHAPE) {
                    shape = q;
                }
            }
            if (types.size() == 4 && shape != null && (at == types.get(0) || at == types.get(3))) {
                String d = types.get(0).text();
                String c = types.get(3).text();
                String s = shape.text();
                boolean m8n8k4 = shape.kind() == Qualifier.M8N8K4;
                if (!d.equals(c) && (d + c).matches("(\\.f16|\\.f32){2}") && !(m8n8k4 && d.equals(".f32"))) {
                    return () -> name + " " + s + " takes D and C of one type (.f16 and .f16, or .f32 and .f32), not "
                            + d + " and " + c + (m8n8k4 ? "; .m8n8k4 also takes .f32 D with .f16 C" : "") + cite;
                }
            }
        }
        if (at.kind() == Qualifier.ROW || at.kind() == Qualifier.COL) {
            StringBuilder layouts = new StringBuilder();
            Qual shape = null;
            for (Qual q : instruction.qualifiers()) {
                if (q.kind() == Qualifier.ROW || q.kind() == Qualifier.COL) {
                    layouts.append(q.text());
                } else if (q.kind().category == Qualifier.Category.SHAPE) {
                    shape = q;
                }
            }
            if (shape != null && shape.kind() != Qualifier.M8N8K4 && !layouts.toString().equals(".row.col")) {
                String s = shape.text();
                return () -> name + " " + s + " takes the layouts .row.col only (A row-major, B column-major), not "
                        + layouts + "; other layouts are for .m8n8k4 with .f16 inputs" + cite;
            }
        }
        return null;
    }

    /** The element types of mma, as written after its shape and layouts: D, A, B, C (and the scale type). */
    private static final java.util.Set<String> MMA_TYPES = java.util.Set.of(".f16", ".f32", ".f64", ".bf16", ".tf32",
            ".e4m3", ".e5m2", ".e3m2", ".e2m3", ".e2m1", ".s8", ".u8", ".s4", ".u4", ".b1", ".s32");

    /**
     * For an mma that no form takes: whether its shape is one its input type (A's) has, and if not,
     * the diagnostic that names the shapes it has (the Syntax block of spec/isa/mma.md). Null when
     * the shape is right, or when there is no shape or A type to judge by.
     */
    private static Problem mmaShapeProblem(Instruction instruction) {
        Qual shape = null;
        List<String> types = new ArrayList<>();
        for (Qual q : instruction.qualifiers()) {
            String t = q.text();
            if (t.matches("\\.m\\d+n\\d+k\\d+")) {
                shape = shape == null ? q : shape;
            } else if (MMA_TYPES.contains(t)) {
                types.add(t);
            }
        }
        if (shape == null || types.size() < 2) {
            return null;
        }
        String input = types.get(1);
        boolean sparse = instruction.opcode() == Opcode.MMA_SP || instruction.has(Qualifier.SP)
                || instruction.has(Qualifier.SP_ORDERED_METADATA);
        List<String> valid;
        if (instruction.has(Qualifier.KIND_MXF4) || instruction.has(Qualifier.KIND_MXF4NVF4)) {
            valid = List.of(".m16n8k64");
        } else if (instruction.has(Qualifier.KIND_F8F6F4) || instruction.has(Qualifier.KIND_MXF8F6F4)) {
            valid = List.of(sparse ? ".m16n8k64" : ".m16n8k32");
        } else if (sparse) {
            valid = io.ptxrun.isa.MatrixRules.sparseMmaShapesOf(input);
        } else {
            valid = io.ptxrun.isa.MatrixRules.mmaShapesOf(input);
        }
        if (valid == null || valid.contains(shape.text())) {
            return null;
        }
        String name = sparse ? "mma.sp" : instruction.has(Qualifier.SYNC) ? "mma.sync" : "mma";
        String written = shape.text();
        String kind = instruction.has(Qualifier.BLOCK_SCALE) ? " with .block_scale"
                : instruction.qualifiers().stream().map(Qual::text).filter(t -> t.startsWith(".kind::"))
                .findFirst().map(k -> " with " + k).orElse("");
        return new Problem(shape.pos(), "isa.qualifier", () -> name + " shape " + written + " is not a shape of "
                + input + " inputs" + kind + "; valid: " + String.join(", ", valid)
                + " (PTX ISA " + (sparse ? "9.7.14.6 mma.sp" : "9.7.14.5.14 mma") + " (spec/isa/mma.md))",
                Problem.FOREIGN_QUALIFIER);
    }

    /** An opcode with the kinds of its qualifiers as written, in order. */
    private record QualifierKinds(Opcode opcode, List<Qualifier> kinds) {
        // Written out: a record's generated equals and hashCode are linked at their first call,
        // which costs a short check a few milliseconds.
        @Override
        public boolean equals(Object o) {
            return o instanceof QualifierKinds k && k.opcode == opcode && k.kinds.equals(kinds);
        }

        @Override
        public int hashCode() {
            return 31 * opcode.hashCode() + kinds.hashCode();
        }
    }

    /**
     * By opcode and written qualifier kinds: which of the opcode's forms take those qualifiers.
     * Whether qualifiers fit a form depends on their kinds and order alone, and a module repeats
     * few combinations, so each is matched against the forms once per run.
     */
    private static final java.util.concurrent.ConcurrentHashMap<QualifierKinds, boolean[]> QUALIFIERS_FIT =
            new java.util.concurrent.ConcurrentHashMap<>();

    private static boolean[] qualifiersFit(Instruction instruction, List<Form> forms) {
        List<Qualifier> kinds = new ArrayList<>(instruction.qualifiers().size());
        for (Qual q : instruction.qualifiers()) {
            kinds.add(q.kind());
        }
        return QUALIFIERS_FIT.computeIfAbsent(new QualifierKinds(instruction.opcode(), kinds), key -> {
            boolean[] fit = new boolean[forms.size()];
            for (int f = 0; f < fit.length; f++) {
                if (cannotFit(key.kinds(), forms.get(f))) {
                    continue;
                }
                List<Problem> problems = new ArrayList<>();
                matchQualifiers(instruction, forms.get(f), problems);
                fit[f] = problems.isEmpty();
            }
            return fit;
        });
    }

    /**
     * Whether written qualifiers of these kinds certainly leave a problem in a form, found without
     * matching them (most of an opcode's forms are ruled out so, before the matching that explains
     * what is wrong): a kind that no group of the form offers stays unconsumed, and a required
     * group none of whose combinations is all written stays missing.
     */
    static boolean cannotFit(List<Qualifier> kinds, Form form) {
        for (Qualifier k : kinds) {
            boolean offered = false;
            for (QualifierGroup g : form.qualifiers()) {
                if (g.mentions(k)) {
                    offered = true;
                    break;
                }
            }
            if (!offered) {
                return true;
            }
        }
        for (QualifierGroup g : form.qualifiers()) {
            if (!g.required()) {
                continue;
            }
            boolean written = false;
            for (List<Qualifier> alt : g.alternatives()) {
                if (kinds.containsAll(alt)) {
                    written = true;
                    break;
                }
            }
            if (!written) {
                return true;
            }
        }
        return false;
    }

    static void matchQualifiers(Instruction instruction, Form form, List<Problem> problems) {
        List<Qual> remaining = new ArrayList<>(instruction.qualifiers());
        List<Qualifier> used = new ArrayList<>();
        String name = instruction.opcode().spelling;
        // Group index that took each state space qualifier, in source order: the destination
        // space is written before the source space (`cp.async.shared.global`, `.global.shared::cta`).
        int[] spaceGroup = new int[instruction.qualifiers().size()];
        java.util.Arrays.fill(spaceGroup, -1);
        // Likewise the destination type before the source type (`cvt.f32.s32`, `slct.f32.s32`).
        int[] typeGroup = new int[instruction.qualifiers().size()];
        java.util.Arrays.fill(typeGroup, -1);
        // And the layout of A before that of B (`wmma.mma.row.col`).
        int[] layoutGroup = new int[instruction.qualifiers().size()];
        java.util.Arrays.fill(layoutGroup, -1);
        int groupIndex = -1;
        List<QualifierGroup> missing = new ArrayList<>();
        for (QualifierGroup group : form.qualifiers()) {
            groupIndex++;
            List<Qualifier> best = null;
            for (List<Qualifier> alt : group.alternatives()) {
                // The longest combination; among equals the one written first, so that a group
                // repeated for two operands (`dp4a.s32.u32`) takes the qualifiers in order.
                if (allPresent(alt, remaining) && (best == null || alt.size() > best.size()
                        || alt.size() == best.size() && firstIndex(alt, remaining) < firstIndex(best, remaining))) {
                    best = alt;
                }
            }
            if (best != null) {
                for (Qualifier q : best) {
                    Qual taken = remove(q, remaining);
                    used.add(q);
                    if (group.leading() && indexOf(instruction.qualifiers(), taken) != 0) {
                        problems.add(new Problem(taken.pos(), "isa.qualifier", () -> "'" + taken.text()
                                + "' must directly follow '" + name + "' (" + cite(form) + ")", Problem.FOREIGN_QUALIFIER));
                    }
                    if (q.category == Qualifier.Category.SPACE) {
                        spaceGroup[indexOf(instruction.qualifiers(), taken)] = groupIndex;
                    } else if (q.category == Qualifier.Category.TYPE) {
                        typeGroup[indexOf(instruction.qualifiers(), taken)] = groupIndex;
                    } else if (q.category == Qualifier.Category.LAYOUT) {
                        layoutGroup[indexOf(instruction.qualifiers(), taken)] = groupIndex;
                    }
                }
            } else if (group.required()) {
                missing.add(group);
            }
        }
        for (QualifierGroup group : missing) {
            // A written qualifier of the same kind (`.b32` where `.u32` is required) is the
            // problem to point at, once, rather than a missing one and a foreign one.
            Qualifier.Category category = group.alternatives().get(0).get(0).category;
            // A type written twice where the second must differ (`slct.u32.u32`) is the wrong type too.
            Qual instead = firstOfCategory(remaining, category, used);
            if (instead != null) {
                remaining.remove(indexOf(remaining, instead));
                problems.add(new Problem(instead.pos(), "isa.qualifier", () -> "'" + instead.text() + "' is not allowed on "
                        + name + " here; this form takes " + group.describe() + " (" + cite(form) + ")",
                        Problem.FOREIGN_QUALIFIER));
            } else {
                problems.add(new Problem(instruction.pos(), "isa.qualifier", () -> name + " requires "
                        + (group.alternatives().size() > 1 ? "one of " : "") + group.describe() + " in this form ("
                        + cite(form) + ")", Problem.MISSING_QUALIFIER));
            }
        }
        int lastSpaceGroup = -1;
        for (int i = 0; i < spaceGroup.length; i++) {
            if (spaceGroup[i] < 0) {
                continue;
            }
            if (spaceGroup[i] < lastSpaceGroup) {
                Qual q = instruction.qualifiers().get(i);
                problems.add(new Problem(q.pos(), "isa.qualifier", () -> "state space '" + q.text() + "' is out of place on "
                        + name + ": the destination state space comes first, then the source (" + cite(form) + ")",
                        Problem.FOREIGN_QUALIFIER));
            }
            lastSpaceGroup = Math.max(lastSpaceGroup, spaceGroup[i]);
        }
        int lastTypeGroup = -1;
        for (int i = 0; i < typeGroup.length; i++) {
            if (typeGroup[i] < 0) {
                continue;
            }
            if (typeGroup[i] < lastTypeGroup) {
                Qual q = instruction.qualifiers().get(i);
                problems.add(new Problem(q.pos(), "isa.qualifier", () -> "type '" + q.text() + "' is out of place on "
                        + name + ": the destination type comes first, then the source (" + cite(form) + ")",
                        Problem.FOREIGN_QUALIFIER));
            }
            lastTypeGroup = Math.max(lastTypeGroup, typeGroup[i]);
        }
        int lastLayoutGroup = -1;
        for (int i = 0; i < layoutGroup.length; i++) {
            if (layoutGroup[i] < 0) {
                continue;
            }
            if (layoutGroup[i] < lastLayoutGroup) {
                Qual q = instruction.qualifiers().get(i);
                problems.add(new Problem(q.pos(), "isa.qualifier", () -> "layout '" + q.text() + "' is out of place on "
                        + name + ": the layout of A comes first, then that of B (" + cite(form) + ")",
                        Problem.FOREIGN_QUALIFIER));
            }
            lastLayoutGroup = Math.max(lastLayoutGroup, layoutGroup[i]);
        }
        for (Qual q : remaining) {
            if (used.contains(q.kind())) {
                problems.add(new Problem(q.pos(), "isa.qualifier", () -> "'" + q.text() + "' is given twice on "
                        + name + "; a qualifier may appear once", Problem.FOREIGN_QUALIFIER));
                continue;
            }
            QualifierGroup home = groupMentioning(form, q.kind());
            Supplier<String> allowed = () -> form.qualifiers().isEmpty() ? "it takes no qualifiers"
                    : "allowed: " + form.qualifiers().stream().map(QualifierGroup::describe).distinct()
                    .collect(Collectors.joining(", "));
            if (home != null) {
                problems.add(new Problem(q.pos(), "isa.qualifier", () -> "'" + q.text() + "' cannot be used in this "
                        + "combination on " + name + "; this position takes one of " + home.describe()
                        + " (" + cite(form) + ")", Problem.FOREIGN_QUALIFIER));
            } else {
                problems.add(new Problem(q.pos(), "isa.qualifier", () -> (q.kind() == Qualifier.OTHER ? "unknown " : "")
                        + "qualifier '" + q.text() + "' is not allowed on " + name + " here; " + allowed.get()
                        + " (" + cite(form) + ")", Problem.FOREIGN_QUALIFIER));
            }
        }
    }

    /**
     * The first written qualifier of a category that no group took (of a type, even one taken):
     * the one to name when a group of that category is missing.
     */
    private static Qual firstOfCategory(List<Qual> remaining, Qualifier.Category category, List<Qualifier> used) {
        for (Qual q : remaining) {
            if (q.kind().category == category && (!used.contains(q.kind()) || category == Qualifier.Category.TYPE)) {
                return q;
            }
        }
        return null;
    }

    /** The first group of a form that offers a qualifier, or null. */
    private static QualifierGroup groupMentioning(Form form, Qualifier q) {
        for (QualifierGroup g : form.qualifiers()) {
            if (g.mentions(q)) {
                return g;
            }
        }
        return null;
    }

    /** Where the first qualifier of a combination stands among the unconsumed ones. */
    private static int firstIndex(List<Qualifier> alt, List<Qual> remaining) {
        for (int i = 0; i < remaining.size(); i++) {
            if (remaining.get(i).kind() == alt.get(0)) {
                return i;
            }
        }
        return Integer.MAX_VALUE;
    }

    /** Whether every qualifier of a combination is among the unconsumed ones (combinations never repeat one). */
    private static int firstColumn(List<Problem> problems) {
        int first = Integer.MAX_VALUE;
        for (Problem p : problems) {
            first = Math.min(first, p.pos().line() * 10_000 + p.pos().column());
        }
        return first;
    }

    private static boolean allPresent(List<Qualifier> alt, List<Qual> remaining) {
        for (Qualifier q : alt) {
            boolean found = false;
            for (Qual r : remaining) {
                if (r.kind() == q) {
                    found = true;
                    break;
                }
            }
            if (!found) {
                return false;
            }
        }
        return true;
    }

    private static Qual remove(Qualifier q, List<Qual> remaining) {
        for (int i = 0; i < remaining.size(); i++) {
            if (remaining.get(i).kind() == q) {
                return remaining.remove(i);
            }
        }
        throw new IllegalStateException("qualifier " + q + " was checked present");
    }

    /** Position of a qualifier object among the instruction's qualifiers (identity, not equality). */
    private static int indexOf(List<Qual> quals, Qual q) {
        for (int i = 0; i < quals.size(); i++) {
            if (quals.get(i) == q) {
                return i;
            }
        }
        return -1;
    }

    private void matchOperands(Instruction instruction, Form form, RegisterTable registers, List<Problem> problems) {
        List<Operand> ops = instruction.operands();
        List<OperandSlot> slots = form.operands();
        Mnemonic name = new Mnemonic(instruction);
        if (ops.size() < form.minOperands() || ops.size() > slots.size()) {
            SourcePos at = ops.size() > slots.size() ? ops.get(slots.size()).pos() : instruction.pos();
            String expected = form.minOperands() == slots.size() ? String.valueOf(slots.size())
                    : form.minOperands() + " to " + slots.size();
            problems.add(new Problem(at, "isa.operand", () -> name + " takes " + expected + " operands ("
                    + slots.stream().map(s -> s.optional() ? "{" + s.name() + "}" : s.name())
                    .collect(Collectors.joining(", ")) + "), not " + ops.size() + " (" + cite(form) + ")",
                    Problem.OPERAND_COUNT));
            return;
        }
        List<DataType> types = instruction.types();
        instructionType = types.isEmpty() ? null : types.get(types.size() - 1);
        firstType = types.isEmpty() ? null : types.get(0);
        currentVectorWidth = instruction.vectorWidth();
        for (int i = 0; i < ops.size(); i++) {
            Problem p = matchOperand(ops.get(i), slots.get(i), i, name, form, registers);
            if (p != null) {
                problems.add(p);
            }
        }
    }

    /** Text computed when first printed: operand descriptions are needed only for the closest form. */
    private static Object lazyText(Supplier<String> text) {
        return new Object() {
            @Override
            public String toString() {
                return text.get();
            }
        };
    }

    /** The written mnemonic, spelled out only when a message needs it. */
    private static final class Mnemonic {
        private final Instruction instruction;
        private String text;

        Mnemonic(Instruction instruction) {
            this.instruction = instruction;
        }

        @Override
        public String toString() {
            if (text == null) {
                text = instruction.mnemonic();
            }
            return text;
        }
    }

    /** The components of a vector register (PTX ISA 5.4.2): `v.x` or `v.r` ... */
    private static final java.util.Set<String> COMPONENTS = java.util.Set.of(".x", ".y", ".z", ".w", ".r", ".g", ".b", ".a");

    private Problem matchOperand(Operand op, OperandSlot slot, int index, Mnemonic name, Form form,
                                 RegisterTable registers) {
        Object what = lazyText(() -> "operand " + (index + 1) + " (" + slot.name() + ") of " + name);
        if (op instanceof Operand.Selected sel && sel.base() instanceof Operand.Register r
                && COMPONENTS.contains(sel.selector())) {
            // One element of a vector register is a scalar register of the element type (ptxas
            // does not check the component against the width: `w.z` of a .v2 register passes).
            if (registers.vectorWidthOf(r.name()) > 1) {
                return matchScalar(new Operand.Register(sel.pos(), r.name()), slot, index, what, form, registers);
            }
        }
        if (op instanceof Operand.Register r && registers.vectorWidthOf(r.name()) > 1) {
            return matchVectorRegister(r, registers.vectorWidthOf(r.name()), slot, what, form, registers);
        }
        return matchScalar(op, slot, index, what, form, registers);
    }

    /**
     * A whole vector register: the value of a .vN ld/st/mov of its element type, or the operand of
     * an instruction whose bit-size type is as wide as the whole vector (`mov.b32 h` for a
     * `.v2 .b16 h`), as ptxas takes them.
     */
    private Problem matchVectorRegister(Operand.Register r, int width, OperandSlot slot, Object what, Form form,
                                        RegisterTable registers) {
        DataType element = registers.typeOf(r.name());
        boolean typed = slot.kinds().contains(OperandKind.MEMORY_VALUE) || slot.kinds().contains(OperandKind.TYPED);
        if (instructionType != null && typed) {
            if (currentVectorWidth == width && (slot.kinds().contains(OperandKind.MEMORY_VALUE)
                    ? memoryCompatible(instructionType, element) : typeCompatible(instructionType, element))) {
                return null;
            }
            if (currentVectorWidth == 1 && instructionType.kind == DataType.Kind.BITS
                    && instructionType.bits == width * element.bits) {
                return null;
            }
        }
        return new Problem(r.pos(), "isa.operand", () -> what + ": " + r.name() + " is a vector register (.v" + width
                + " " + element.spelling + "), which fits a .v" + width + " " + element.spelling + " operand or a .b"
                + width * element.bits + " one (PTX ISA 5.4.2; " + cite(form) + ")", Problem.OPERAND);
    }

    private Problem matchScalar(Operand op, OperandSlot slot, int index, Object what, Form form,
                                RegisterTable registers) {
        if (slot.kinds().contains(OperandKind.MEMORY_VALUE) && instructionType != null) {
            return matchMemoryValue(op, what, form, registers);
        }
        if (op instanceof Operand.SpecialReg sr && slot.kinds().contains(OperandKind.SPECIAL) && instructionType != null) {
            int bits = SpecialRegisterWidths.bits(sr.register());
            // cvt between integers reads a special register as it reads a wider register.
            boolean widthFits = slot.kinds().contains(OperandKind.TYPED_OR_WIDER) ? bits >= instructionType.bits
                    : SpecialRegisterWidths.readableAs(sr.register(), instructionType.bits);
            return widthFits && instructionType.kind != DataType.Kind.FLOAT ? null
                    : new Problem(op.pos(), "isa.operand", () -> what + ": " + sr.register().spelling + " is a "
                    + (bits == 1 ? "predicate" : bits + "-bit") + " special register, the instruction type is "
                    + instructionType.spelling + " (" + cite(form) + ")", Problem.OPERAND);
        }
        if (op instanceof Operand.Vector && slot.kinds().contains(OperandKind.VECTOR)) {
            return null;
        }
        DataType fragmentType = slot.kinds().contains(OperandKind.VECTOR_U32) ? DataType.U32
                : slot.kinds().contains(OperandKind.VECTOR_B32) ? DataType.B32
                : slot.kinds().contains(OperandKind.VECTOR_F32) ? DataType.F32
                : slot.kinds().contains(OperandKind.VECTOR_F64) ? DataType.F64 : null;
        if (fragmentType != null) {
            return matchFragment(op, slot, fragmentType, what, form, registers);
        }
        java.util.Set<DataType> exact = exactFragmentTypes(slot);
        if (exact != null) {
            return matchExactFragment(op, slot, exact, what, form, registers);
        }
        if (slot.kinds().contains(OperandKind.UNIT_FRACTION)) {
            return matchUnitFraction(op, what, form, registers);
        }
        boolean widerAllowed = slot.kinds().contains(OperandKind.TYPED_OR_WIDER)
                || slot.kinds().contains(OperandKind.FIRST_TYPED_OR_WIDER);
        DataType slotType = slot.kinds().contains(OperandKind.TYPED) ? instructionType
                : slot.kinds().contains(OperandKind.TYPED_OR_WIDER) ? instructionType
                : slot.kinds().contains(OperandKind.FIRST_TYPED_OR_WIDER) ? firstType
                : slot.kinds().contains(OperandKind.WIDE_TYPED) ? widened(instructionType)
                : slot.kinds().contains(OperandKind.FIRST_TYPED) ? firstType : null;
        // The first operand of a typed form is its destination: ptxas "Result register required".
        if (slotType != null && index == 0 && (op instanceof Operand.IntImm || op instanceof Operand.FloatImm)) {
            return new Problem(op.pos(), "isa.operand", () -> what + " is the destination and must be a register, not a"
                    + " constant (" + cite(form) + ")", Problem.OPERAND);
        }
        if (slotType != null && widerAllowed && op instanceof Operand.Register) {
            return matchMemoryElement(op, slotType, what, form, registers);
        }
        if (slotType != null) {
            Problem typed = matchTyped(op, what, form, registers, slotType);
            if (typed == null) {
                return null;
            }
            if (slot.kinds().size() == 1) {
                return typed;
            }
        }
        if (op instanceof Operand.Symbol) {
            if (slot.kinds().contains(OperandKind.SYMBOL)) {
                return null;
            }
        } else if (op instanceof Operand.Register r) {
            DataType t = registers.typeOf(r.name());
            if (t == null || registerFits(t, slot)) {
                return null;
            }
            return new Problem(op.pos(), "isa.operand", () -> what + " must be " + slot.describe() + "; "
                    + r.name() + " is " + t.spelling + " (" + cite(form) + ")", Problem.OPERAND);
        } else if (op instanceof Operand.SpecialReg) {
            if (slot.kinds().contains(OperandKind.B32) || slot.kinds().contains(OperandKind.B64)) {
                return null;
            }
        } else if (op instanceof Operand.IntImm imm) {
            // ptxas takes 0 or 1 for a predicate source (`selp.u32 d, a, b, 1`); other values
            // are not predicates (`cp.async ..., 16, 32` is a source size out of range).
            if (slot.kinds().contains(OperandKind.PRED) && (imm.value() == 0 || imm.value() == 1)) {
                return null;
            }
            if (slot.kinds().contains(OperandKind.IMMEDIATE)) {
                if (slot.admits(imm.value())) {
                    return null;
                }
                return new Problem(op.pos(), "isa.immediate", () -> what + " must be " + slot.immediateConstraint()
                        + ", not " + imm.value() + " (" + cite(form) + ")", Problem.OPERAND);
            }
        } else if (op instanceof Operand.Negated n) {
            if (!n.arithmetic() && slot.kinds().contains(OperandKind.NEGATED_PRED)
                    && n.operand() instanceof Operand.Register r) {
                DataType t = registers.typeOf(r.name());
                if (t == null || t == DataType.PRED) {
                    return null;
                }
            }
        } else if (op instanceof Operand.Address) {
            if (slot.kinds().contains(OperandKind.ADDRESS)) {
                return null;
            }
        } else if (op instanceof Operand.Sink) {
            if (slot.kinds().contains(OperandKind.SINK)) {
                return null;
            }
        } else if (op instanceof Operand.Vector v) {
            if (slot.kinds().contains(OperandKind.SELECTOR)) {
                return matchSelector(v, slot, what, form, registers);
            }
            if (slot.kinds().contains(OperandKind.VECTOR16)) {
                if (v.elements().size() != slot.count()) {
                    return new Problem(op.pos(), "isa.operand", () -> what + " must have " + slot.count()
                            + " elements, not " + v.elements().size() + " (" + cite(form) + ")", Problem.OPERAND);
                }
                for (Operand e : v.elements()) {
                    if (!(e instanceof Operand.IntImm) && !(e instanceof Operand.Register r
                            && (registers.typeOf(r.name()) == null || registers.typeOf(r.name()).bits == 16))) {
                        return new Problem(e.pos(), "isa.operand", () -> "the elements of " + what
                                + " must be 16-bit registers or constants (" + cite(form) + ")", Problem.OPERAND);
                    }
                }
                return null;
            }
        } else if (op instanceof Operand.PredPair pair) {
            if (slot.kinds().contains(OperandKind.PRED_PAIR) && isPredOrSink(pair.first(), registers)
                    && isPredOrSink(pair.second(), registers)) {
                return null;
            }
            boolean valuePair = slot.kinds().contains(OperandKind.VALUE_PRED_PAIR);
            if ((valuePair || slot.kinds().contains(OperandKind.REGISTER_PRED_PAIR))
                    && pair.second() instanceof Operand.Register p && isPredOrSink(p, registers)
                    && (valuePair && pair.first() instanceof Operand.Sink || pair.first() instanceof Operand.Register r
                    && (registers.typeOf(r.name()) == null || registers.typeOf(r.name()).bits == 32
                    && registers.typeOf(r.name()) != DataType.PRED))) {
                return null;
            }
        } else if (op instanceof Operand.TensorRef t) {
            if (slot.kinds().contains(OperandKind.TENSOR)) {
                return matchTensor(t, slot, what, form, registers);
            }
        }
        return new Problem(op.pos(), "isa.operand", () -> what + " must be " + slot.describe() + " ("
                + cite(form) + ")", Problem.OPERAND);
    }

    /** A matrix fragment: a vector of exactly slot.count() registers of the element type. */
    private static Problem matchFragment(Operand op, OperandSlot slot, DataType element, Object what, Form form,
                                         RegisterTable registers) {
        if (!(op instanceof Operand.Vector v)) {
            return new Problem(op.pos(), "isa.operand", () -> what + " must be " + slot.describe() + " in braces ("
                    + cite(form) + ")", Problem.OPERAND);
        }
        if (v.elements().size() != slot.count()) {
            return new Problem(op.pos(), "isa.operand", () -> what + " must have " + slot.count() + " registers for"
                    + " this shape and type, not " + v.elements().size() + " (" + cite(form) + ")", Problem.OPERAND);
        }
        for (Operand e : v.elements()) {
            if (e instanceof Operand.Register r) {
                DataType t = registers.typeOf(r.name());
                if (t == null || typeCompatible(element, t)) {
                    continue;
                }
                // A .b32 fragment takes any 32-bit register, floating point too.
                return new Problem(e.pos(), "isa.operand", () -> "the elements of " + what + " must be "
                        + element.bits + "-bit " + (element.isFloat() ? element.spelling + " "
                        : element == DataType.B32 ? "" : "integer or bit-size ") + "registers; " + r.name() + " is "
                        + t.spelling + " (" + cite(form) + ")", Problem.OPERAND);
            }
            if (!(e instanceof Operand.Symbol s && s.name().startsWith("%"))) {
                return new Problem(e.pos(), "isa.operand", () -> "the elements of " + what + " must be registers ("
                        + cite(form) + ")", Problem.OPERAND);
            }
        }
        return null;
    }

    /** mma's {byte-id, thread-id}: 16-bit registers, or constants among the slot's selectors. */
    private static Problem matchSelector(Operand.Vector v, OperandSlot slot, Object what, Form form,
                                         RegisterTable registers) {
        if (v.elements().size() != 2) {
            return new Problem(v.pos(), "isa.operand", () -> what + " must be a pair {byte-id, thread-id}, not "
                    + v.elements().size() + " values (" + cite(form) + ")", Problem.OPERAND);
        }
        for (int i = 0; i < 2; i++) {
            Operand e = v.elements().get(i);
            String name = i == 0 ? "byte-id" : "thread-id";
            if (e instanceof Operand.IntImm imm) {
                boolean ok = i == 0 ? slot.allowedValues().contains(imm.value())
                        : imm.value() >= slot.min() && imm.value() <= slot.max();
                if (!ok) {
                    String allowed = i == 0 ? slot.immediateConstraint() : "in " + slot.min() + ".." + slot.max();
                    return new Problem(e.pos(), "isa.operand", () -> "the " + name + " of " + what + " must be "
                            + allowed + " with this scale vector size, not " + imm.value() + " (" + cite(form) + ")",
                            Problem.OPERAND);
                }
            } else if (!(e instanceof Operand.Register r
                    && (registers.typeOf(r.name()) == null || registers.typeOf(r.name()).bits == 16))) {
                return new Problem(e.pos(), "isa.operand", () -> "the " + name + " of " + what
                        + " must be a 16-bit register or a constant (" + cite(form) + ")", Problem.OPERAND);
            }
        }
        return null;
    }

    private static final java.util.Set<DataType> BITS32 = java.util.Set.of(DataType.B32);
    private static final java.util.Set<DataType> F16X2 = java.util.Set.of(DataType.B32, DataType.F16X2);
    private static final java.util.Set<DataType> F32_BITS = java.util.Set.of(DataType.B32, DataType.F32);
    private static final java.util.Set<DataType> ANY64 = java.util.Set.of(DataType.B64, DataType.U64, DataType.S64,
            DataType.F64);

    /** The register types an mma fragment slot takes, or null for other slots. */
    private static java.util.Set<DataType> exactFragmentTypes(OperandSlot slot) {
        return slot.kinds().contains(OperandKind.VECTOR_BITS32) ? BITS32
                : slot.kinds().contains(OperandKind.VECTOR_F16X2) ? F16X2
                : slot.kinds().contains(OperandKind.VECTOR_F32_BITS) ? F32_BITS
                : slot.kinds().contains(OperandKind.VECTOR_64) ? ANY64 : null;
    }

    /** An mma fragment: a vector of exactly slot.count() registers of the listed types. */
    private static Problem matchExactFragment(Operand op, OperandSlot slot, java.util.Set<DataType> types, Object what,
                                              Form form, RegisterTable registers) {
        if (!(op instanceof Operand.Vector v)) {
            return new Problem(op.pos(), "isa.operand", () -> what + " must be " + slot.describe() + " in braces ("
                    + cite(form) + ")", Problem.OPERAND);
        }
        if (v.elements().size() != slot.count()) {
            return new Problem(op.pos(), "isa.operand", () -> what + " must have " + slot.count() + " registers for"
                    + " this shape and type, not " + v.elements().size() + " (" + cite(form) + ")", Problem.OPERAND);
        }
        for (Operand e : v.elements()) {
            if (e instanceof Operand.Register r) {
                DataType t = registers.typeOf(r.name());
                if (t == null || types.contains(t)) {
                    continue;
                }
                return new Problem(e.pos(), "isa.operand", () -> "the elements of " + what + " must be "
                        + slot.describe().substring(("a vector of " + slot.count() + " ").length()) + "; " + r.name()
                        + " is " + t.spelling + " (" + cite(form) + ")", Problem.OPERAND);
            }
            if (!(e instanceof Operand.Symbol s && s.name().startsWith("%"))) {
                return new Problem(e.pos(), "isa.operand", () -> "the elements of " + what + " must be registers ("
                        + cite(form) + ")", Problem.OPERAND);
            }
        }
        return null;
    }

    /** createpolicy's fraction: a floating-point constant in (0, 1], or a 32-bit register. */
    private static Problem matchUnitFraction(Operand op, Object what, Form form, RegisterTable registers) {
        if (op instanceof Operand.FloatImm f) {
            double v = f.value();
            return v > 0 && v <= 1 ? null : new Problem(op.pos(), "isa.immediate", () -> what + " must be in (0, 1],"
                    + " not " + v + " (" + cite(form) + ")", Problem.OPERAND);
        }
        if (op instanceof Operand.Register r) {
            DataType t = registers.typeOf(r.name());
            if (t == null || t.bits == 32 && t != DataType.PRED) {
                return null;
            }
            return new Problem(op.pos(), "isa.operand", () -> what + " must be a 32-bit register or a floating-point"
                    + " constant in (0, 1]; " + r.name() + " is " + t.spelling + " (" + cite(form) + ")", Problem.OPERAND);
        }
        return new Problem(op.pos(), "isa.operand", () -> what + " must be a floating-point constant in (0, 1] or a"
                + " 32-bit register, such as 0.5 or 0f3F000000 (" + cite(form) + ")", Problem.OPERAND);
    }

    /** 6.4.1 operand type rules for an operand of the instruction's own type. */
    private Problem matchTyped(Operand op, Object what, Form form, RegisterTable registers, DataType type) {
        if (op instanceof Operand.Register r) {
            DataType t = registers.typeOf(r.name());
            if (t == null || typeCompatible(type, t)) {
                return null;
            }
            return new Problem(op.pos(), "isa.operand", () -> what + " must be a " + type.spelling.substring(1)
                    + "-compatible register (PTX ISA 6.4.1: same size; bit-size types match any type); " + r.name()
                    + " is " + t.spelling + " (" + cite(form) + ")", Problem.OPERAND);
        }
        // Integer constants for integer, bit-size and predicate types (`mov.pred %p1, 1`).
        if (op instanceof Operand.IntImm && type.kind != DataType.Kind.FLOAT) {
            return null;
        }
        if (op instanceof Operand.IntImm imm) {
            return new Problem(op.pos(), "isa.operand", () -> what + " is the integer constant " + imm.value()
                    + ", which is not a " + type.spelling + " value; write a floating-point constant such as "
                    + imm.value() + ".0 or 0f" + String.format("%08X", Float.floatToIntBits(imm.value()))
                    + " (PTX ISA 4.5.1, 6.4.1; " + cite(form) + ")", Problem.OPERAND);
        }
        // An undeclared register parses as a name; DeclarationChecker reports it.
        if (op instanceof Operand.Symbol s && s.name().startsWith("%")) {
            return null;
        }
        if (op instanceof Operand.FloatImm && (type.kind == DataType.Kind.FLOAT || type.kind == DataType.Kind.BITS)) {
            return null;
        }
        // Special registers are not operands of arithmetic (ptxas: "Arguments mismatch" for
        // `add.u32 %r1, %tid.x, 1`); compiler output moves them into a register first.
        if (op instanceof Operand.Negated n && type == DataType.PRED && !n.arithmetic()) {
            return null;
        }
        return new Problem(op.pos(), "isa.operand", () -> what + " must be a register or constant of type " + type.spelling
                + " (" + cite(form) + ")", Problem.OPERAND);
    }

    /** The type of the same kind and twice the width (.s32 -> .s64), or null where there is none. */
    private static DataType widened(DataType type) {
        return type == null ? null : DataType.ofSpelling("." + type.spelling.charAt(1) + type.bits * 2);
    }

    /** ld/st values: a register at least as wide as the type (or a vector of .vN of them), st constants. */
    private Problem matchMemoryValue(Operand op, Object what, Form form, RegisterTable registers) {
        DataType type = instructionType;
        int width = currentVectorWidth;
        if (width > 1) {
            if (!(op instanceof Operand.Vector v)) {
                return new Problem(op.pos(), "isa.operand", () -> what + " must be a vector of " + width
                        + " values for .v" + width + " (" + cite(form) + ")", Problem.OPERAND);
            }
            if (v.elements().size() != width) {
                return new Problem(op.pos(), "isa.operand", () -> what + " must have " + width + " elements for .v"
                        + width + ", not " + v.elements().size() + " (" + cite(form) + ")", Problem.OPERAND);
            }
            for (Operand e : v.elements()) {
                Problem p = e instanceof Operand.Sink ? null : matchMemoryElement(e, type, what, form, registers);
                if (p != null) {
                    return p;
                }
            }
            return null;
        }
        return matchMemoryElement(op, type, what, form, registers);
    }

    private Problem matchMemoryElement(Operand op, DataType type, Object what, Form form, RegisterTable registers) {
        if (op instanceof Operand.Register r) {
            DataType t = registers.typeOf(r.name());
            // st.async takes registers of the type's size only (ptxas: "Arguments mismatch").
            boolean exact = form.opcode() == io.ptxrun.ast.Opcode.ST_ASYNC;
            if (t == null || memoryCompatible(type, t) && (!exact || t.bits == type.bits)) {
                return null;
            }
            return new Problem(op.pos(), "isa.operand", () -> what + " must be a register of type " + type.spelling
                    + (exact ? "" : " or a wider one of the same kind (PTX ISA 6.4.1)") + "; " + r.name() + " is "
                    + t.spelling + " (" + cite(form) + ")", Problem.OPERAND);
        }
        if (op instanceof Operand.Symbol s && s.name().startsWith("%")) {
            return null;
        }
        boolean store = form.opcode() == io.ptxrun.ast.Opcode.ST || form.opcode() == io.ptxrun.ast.Opcode.ST_ASYNC;
        // WARP_SZ is the integer constant 32 (PTX ISA 4.4, predefined identifiers).
        boolean intConstant = op instanceof Operand.IntImm || op instanceof Operand.Symbol s && s.name().equals("WARP_SZ");
        if (store && intConstant && type.kind != DataType.Kind.FLOAT) {
            return null;
        }
        if (store && op instanceof Operand.FloatImm && type.kind != DataType.Kind.SIGNED
                && type.kind != DataType.Kind.UNSIGNED) {
            return null;
        }
        return new Problem(op.pos(), "isa.operand", () -> what + " must be a register" + (store ? " or constant" : "")
                + " of type " + type.spelling + " (" + cite(form) + ")", Problem.OPERAND);
    }

    /** As {@link #typeCompatible}, except that the register may be wider than the type (sub-word loads). */
    static boolean memoryCompatible(DataType type, DataType register) {
        if (register == DataType.PRED || register.bits < type.bits) {
            return false;
        }
        return switch (type.kind) {
            case BITS -> true;
            case SIGNED, UNSIGNED -> register.isInteger();
            // A bit-size register may be wider (ptxas takes `ld.global.f32 %rd1, [a]` for a .b64 %rd1).
            case FLOAT -> register.kind == DataType.Kind.BITS
                    || register.bits == type.bits && register.kind == DataType.Kind.FLOAT;
            default -> false;
        };
    }

    private static boolean isPredOrSink(Operand o, RegisterTable registers) {
        if (o instanceof Operand.Sink) {
            return true;
        }
        if (o instanceof Operand.Register r) {
            DataType t = registers.typeOf(r.name());
            return t == null || t == DataType.PRED;
        }
        return false;
    }

    static boolean typeCompatible(DataType instruction, DataType register) {
        if (instruction == DataType.PRED || register == DataType.PRED) {
            return instruction == register;
        }
        if (instruction.bits != register.bits) {
            return false;
        }
        return switch (instruction.kind) {
            case BITS -> true;
            case SIGNED, UNSIGNED -> register.isInteger();
            case FLOAT -> register.kind == DataType.Kind.BITS || register.kind == DataType.Kind.FLOAT;
            default -> false;
        };
    }

    private static Problem matchTensor(Operand.TensorRef t, OperandSlot slot, Object what, Form form,
                                       RegisterTable registers) {
        if (t.elements().size() != 2 || !(t.elements().get(1) instanceof Operand.Vector coords)) {
            return new Problem(t.pos(), "isa.operand", () -> what + " must be [tensorMap, {coordinates}] ("
                    + cite(form) + ")", Problem.OPERAND);
        }
        Operand map = t.elements().get(0);
        if (!(map instanceof Operand.Register)) {
            // ptxas: "State space mismatch between instruction and address" for a .param symbol.
            return new Problem(map.pos(), "isa.operand", () -> "the tensor map of " + what + " must be a 64-bit register"
                    + " holding its generic address, not a variable name (" + cite(form) + ")", Problem.OPERAND);
        }
        if (map instanceof Operand.Register r) {
            DataType type = registers.typeOf(r.name());
            if (type != null && type.bits != 64) {
                return new Problem(map.pos(), "isa.operand", () -> "the tensor map of " + what
                        + " must be a 64-bit address, not " + type.spelling + " (" + cite(form) + ")", Problem.OPERAND);
            }
        }
        if (coords.elements().size() != slot.count()) {
            return new Problem(coords.pos(), "isa.operand", () -> what + " needs " + slot.count()
                    + " tensor coordinates for this dimension and load mode, not " + coords.elements().size()
                    + " (" + cite(form) + ")", Problem.OPERAND);
        }
        for (Operand c : coords.elements()) {
            if (c instanceof Operand.Register r) {
                DataType type = registers.typeOf(r.name());
                if (type != null && (type.bits != 32 || type == DataType.PRED)) {
                    return new Problem(c.pos(), "isa.operand", () -> "tensor coordinates are 32-bit registers; "
                            + r.name() + " is " + type.spelling + " (" + cite(form) + ")", Problem.OPERAND);
                }
            } else if (!(c instanceof Operand.IntImm)) {
                return new Problem(c.pos(), "isa.operand", () -> "tensor coordinates are 32-bit registers ("
                        + cite(form) + ")", Problem.OPERAND);
            }
        }
        return null;
    }

    private static boolean registerFits(DataType t, OperandSlot slot) {
        if (t == DataType.PRED) {
            return slot.kinds().contains(OperandKind.PRED);
        }
        if (t.bits == 32 && slot.kinds().contains(OperandKind.REG32)) {
            return true;
        }
        if (t.isFloat()) {
            // ptxas: "Arguments mismatch" for an .f32 barrier number; these slots are integers.
            return false;
        }
        return switch (t.bits) {
            case 8 -> slot.kinds().contains(OperandKind.B8);
            case 16 -> slot.kinds().contains(OperandKind.B16);
            case 32 -> slot.kinds().contains(OperandKind.B32);
            case 64 -> slot.kinds().contains(OperandKind.B64);
            default -> false;
        };
    }

    /** Constants ptxas accepts although the spec leaves their behaviour undefined. */
    private void warnUndefinedValues(Instruction instruction, Form form) {
        for (int i = 0; i < instruction.operands().size(); i++) {
            OperandSlot slot = form.operands().get(i);
            if (instruction.operands().get(i) instanceof Operand.IntImm imm && !slot.isDefined(imm.value())) {
                diagnostics.warning(imm.pos(), "isa.undefined", slot.name() + " " + imm.value() + " of "
                        + instruction.mnemonic() + " is outside the valid range " + slot.definedRange()
                        + "; ptxas accepts it, but the behaviour is undefined (" + cite(form) + ")");
            }
        }
    }

    /** A declaration of a type introduced by a later PTX ISA version or target (DataTypeRules). */
    private void checkDeclaredType(io.ptxrun.ast.VarDecl v) {
        io.ptxrun.isa.DataTypeRules.Requirement need = io.ptxrun.isa.DataTypeRules.requirement(v.type());
        if (need == null) {
            return;
        }
        String type = "type " + v.type().spelling;
        if (!context.version().atLeast(need.minVersion())) {
            diagnostics.error(v.pos(), "isa.version", type + " requires PTX ISA .version " + need.minVersion()
                    + " or later (PTX ISA " + need.citation() + "); the module declares .version " + context.version());
        } else if (!need.target().satisfiedBy(context.target(), context.version())) {
            diagnostics.error(v.pos(), "isa.target", type + " requires .target " + need.target().describe()
                    + " (PTX ISA " + need.citation() + "); the module targets " + context.target());
        }
    }

    /** Special registers introduced by a later PTX ISA version or target (SpecialRegisterWidths). */
    private void checkSpecialRegisters(Instruction instruction) {
        for (Operand op : instruction.operands()) {
            if (!(op instanceof Operand.SpecialReg sr)) {
                continue;
            }
            SpecialRegisterWidths.Requirement need = SpecialRegisterWidths.requirement(sr.register());
            if (need == null) {
                continue;
            }
            String name = sr.register().spelling;
            if (!context.version().atLeast(need.minVersion())) {
                diagnostics.error(op.pos(), "isa.version", "'" + name + "' requires PTX ISA .version " + need.minVersion()
                        + " or later (PTX ISA 10, special registers); the module declares .version " + context.version());
            } else if (!need.target().satisfiedBy(context.target(), context.version())) {
                diagnostics.error(op.pos(), "isa.target", "'" + name + "' requires " + need.target().describe()
                        + " (PTX ISA 10, special registers); the module targets " + context.target());
            }
        }
    }

    private void checkFeatures(Instruction instruction) {
        // One diagnostic per distinct unmet requirement: `mbarrier.arrive.relaxed.cluster` on
        // sm_80 fails "sm_90 or higher" for three features, which is one problem to fix.
        java.util.Set<String> reported = new java.util.HashSet<>();
        for (FeatureRule rule : InstructionSet.features(instruction.opcode())) {
            if (!applies(rule, instruction)) {
                continue;
            }
            if (rule.minVersion() != null && !context.version().atLeast(rule.minVersion())
                    && reported.add("version " + rule.minVersion())) {
                diagnostics.error(writtenAt(rule, instruction), "isa.version", rule.feature() + " requires PTX ISA .version "
                        + rule.minVersion() + " or later (PTX ISA " + rule.citation() + "); the module declares .version "
                        + context.version());
            }
            if (!rule.target().satisfiedBy(context.target(), context.version())
                    && reported.add("target " + rule.target().describe())) {
                diagnostics.error(writtenAt(rule, instruction), "isa.target", rule.feature() + " requires .target "
                        + rule.target().describe() + " (PTX ISA " + rule.citation() + "); the module targets "
                        + context.target());
            }
        }
    }

    /**
     * Where a feature's diagnostic points: the first of its qualifiers that the instruction
     * writes, else the instruction (found only for a diagnostic: most rules that apply are met).
     */
    private static SourcePos writtenAt(FeatureRule rule, Instruction instruction) {
        for (Qualifier q : rule.present()) {
            java.util.Optional<Qual> written = instruction.find(q);
            if (written.isPresent()) {
                return written.get().pos();
            }
        }
        return instruction.pos();
    }

    private static boolean applies(FeatureRule rule, Instruction instruction) {
        for (Qualifier q : rule.present()) {
            if (!instruction.has(q)) {
                return false;
            }
        }
        for (Qualifier q : rule.absent()) {
            if (instruction.has(q)) {
                return false;
            }
        }
        if (rule.operandCount() >= 0 && instruction.operands().size() != rule.operandCount()) {
            return false;
        }
        return !rule.sink() || !instruction.operands().isEmpty()
                && instruction.operands().get(0) instanceof Operand.Sink;
    }

    private static String cite(Form form) {
        return "PTX ISA " + form.citation();
    }
}
