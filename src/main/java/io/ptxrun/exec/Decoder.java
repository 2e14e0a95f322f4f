package io.ptxrun.exec;

import io.ptxrun.ast.Block;
import io.ptxrun.ast.DataType;
import io.ptxrun.ast.Function;
import io.ptxrun.ast.Instruction;
import io.ptxrun.ast.Module;
import io.ptxrun.ast.Operand;
import io.ptxrun.ast.Param;
import io.ptxrun.ast.Qual;
import io.ptxrun.ast.Qualifier;
import io.ptxrun.ast.SourcePos;
import io.ptxrun.ast.StateSpace;
import io.ptxrun.ast.Statement;
import io.ptxrun.ast.VarDecl;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns a module into a {@link Program}: module variables laid out ({@link ModuleLayout}), every
 * function with a body decoded once into ops. Nothing later looks at the AST again except for
 * messages.
 */
final class Decoder {
    /** Function "addresses" (for indirect calls) are this plus the function's index. */
    static final long FUNC_WINDOW = 0x5000_0000_0000L;

    enum SymKind { REG, LOCAL, KPARAM, GLOBAL, CONST, SHARED, FUNC }

    record Sym(SymKind kind, long value, int bits) {}

    static final class FuncInfo {
        final Function function;
        final int index;
        int entryPc;
        int numRegs;
        int frameBytes;
        int[] paramOffsets, paramSizes, resultOffsets, resultSizes;
        int[] regBits;

        FuncInfo(Function function, int index) {
            this.function = function;
            this.index = index;
        }
    }

    static final class Program {
        Op[] ops;
        final List<FuncInfo> funcs = new ArrayList<>();
        final Map<String, FuncInfo> byName = new HashMap<>();
        byte[] constBank = new byte[0];
        int sharedStatic;
        int sharedExternOffset;
        /** Shared variables by offset (the dynamic ones at the extern offset), for reports. */
        final java.util.TreeMap<Integer, String> sharedNames = new java.util.TreeMap<>();
    }

    /**
     * An op while it is decoded: the parts of {@link Op}, filled step by step (operands, then the
     * family's form, then the guard and owner), until {@link #op} makes the immutable op.
     */
    static final class Draft {
        private static final int[] NO_INTS = {};

        final OpCode code;
        final Instruction insn;
        final MemoryAccess mem;
        final Modifiers mod;
        DataType type;
        DataType srcType;
        int guard = -1;
        boolean guardNegated;
        int[] dst = NO_INTS;
        int[] dstBits = NO_INTS;
        int owner;
        int[] srcKind = NO_INTS;
        int[] src = NO_INTS;
        long[] imm = {};
        boolean[] srcNegated = {};
        io.ptxrun.ast.SpecialRegister[] sreg = {};
        char[] sregComp = {};
        int target = -1;
        /** {@link Op}'s variant and option, which the op's accessors name by family. */
        int variant;
        int boolOp;
        boolean option;
        OpForm form;

        Draft(OpCode code, Instruction insn) {
            this(code, insn, MemoryAccess.NONE, Modifiers.NONE);
        }

        Draft(OpCode code, Instruction insn, MemoryAccess mem) {
            this(code, insn, mem, Modifiers.NONE);
        }

        Draft(OpCode code, Instruction insn, MemoryAccess mem, Modifiers mod) {
            this.code = code;
            this.insn = insn;
            this.mem = mem;
            this.mod = mod;
        }

        Op op() {
            return new Op(this);
        }
    }

    private final Module module;
    private final Program program = new Program();
    /** The module's variables, laid out before the functions are decoded. */
    private final ModuleLayout layout;
    private final List<Op> ops = new ArrayList<>();

    private Decoder(Module module, GlobalMemory memory) {
        this.module = module;
        this.layout = new ModuleLayout(module, memory, program);
    }

    static Program decode(Module module, GlobalMemory memory) {
        return new Decoder(module, memory).run();
    }

    private Program run() {
        for (Function f : module.functions()) {
            if (f.body().isPresent()) {
                FuncInfo fi = new FuncInfo(f, program.funcs.size());
                program.funcs.add(fi);
                program.byName.put(f.name(), fi);
                layout.globals.put(f.name(), new Sym(SymKind.FUNC, FUNC_WINDOW + fi.index, 64));
            }
        }
        for (FuncInfo fi : program.funcs) {
            new FunctionDecoder(fi).decode();
        }
        program.ops = ops.toArray(new Op[0]);
        return program;
    }

    static long toGeneric(SymKind kind, long addr) {
        return switch (kind) {
            case SHARED -> Space.SHARED.window + addr;
            case CONST -> Space.CONST.window + addr;
            case KPARAM -> Space.KPARAM.window + addr;
            default -> addr;
        };
    }

    /** The raw register bits of an immediate used as an operand of type t. */
    static long immBits(Operand o, DataType t) {
        boolean f32 = t == DataType.F32;
        boolean f64 = t == DataType.F64;
        if (o instanceof Operand.IntImm i) {
            if (f32) {
                return Float.floatToRawIntBits((float) i.value()) & 0xffffffffL;
            }
            if (f64) {
                return Double.doubleToRawLongBits((double) i.value());
            }
            return i.value();
        }
        if (o instanceof Operand.FloatImm f) {
            if (f32) {
                return f.single() ? f.bits() & 0xffffffffL : Float.floatToRawIntBits((float) f.value()) & 0xffffffffL;
            }
            if (f64) {
                return f.single() ? Double.doubleToRawLongBits(f.value()) : f.bits();
            }
            return f.single() ? f.bits() & 0xffffffffL : f.bits();
        }
        throw new IllegalArgumentException("not an immediate: " + o);
    }

    // ---------------------------------------------------------------- functions

    static final class DecodeError extends RuntimeException {
        final SourcePos pos;

        DecodeError(SourcePos pos, String message) {
            super(message, null, false, false);
            this.pos = pos;
        }
    }

    final class FunctionDecoder {
        final FuncInfo fi;
        final Deque<Map<String, Sym>> scopes = new ArrayDeque<>();
        /**
         * Labels are scoped to their block (an inline-asm wait loop inlined twice defines its label
         * twice): each block's labels, innermost first, with the index of the op each marks.
         */
        final Deque<Map<String, Integer>> labelScopes = new ArrayDeque<>();
        final List<Integer> regBits = new ArrayList<>();
        int frame;
        final boolean kernel;

        /** The async copies' and tensor-map edits' decoding. */
        private final CopyDecoding copies = new CopyDecoding(this);

        FunctionDecoder(FuncInfo fi) {
            this.fi = fi;
            this.kernel = fi.function.isEntry();
        }

        void decode() {
            Function f = fi.function;
            Map<String, Sym> top = new HashMap<>();
            scopes.push(top);
            if (kernel) {
                ParamLayout layout;
                try {
                    layout = ParamLayout.of(f);
                } catch (ParamLayout.TooLarge e) {
                    throw new DecodeError(e.param.pos(), e.getMessage());
                }
                for (ParamLayout.Slot s : layout.slots()) {
                    top.put(s.name(), new Sym(SymKind.KPARAM, s.offset(), 64));
                }
            } else {
                fi.resultOffsets = new int[f.results().size()];
                fi.resultSizes = new int[f.results().size()];
                for (int i = 0; i < f.results().size(); i++) {
                    Param p = f.results().get(i);
                    fi.resultOffsets[i] = declareParam(top, p);
                    fi.resultSizes[i] = (int) p.sizeBytes();
                }
                fi.paramOffsets = new int[f.params().size()];
                fi.paramSizes = new int[f.params().size()];
                for (int i = 0; i < f.params().size(); i++) {
                    Param p = f.params().get(i);
                    fi.paramOffsets[i] = declareParam(top, p);
                    fi.paramSizes[i] = (int) p.sizeBytes();
                }
            }
            fi.entryPc = ops.size();
            block(f.body().get(), false);
            // Falling off the end of a body returns.
            Draft end = new Draft(OpCode.RET, null);
            end.owner = fi.index;
            ops.add(end.op());
            fi.numRegs = regBits.size();
            fi.regBits = regBits.stream().mapToInt(Integer::intValue).toArray();
            fi.frameBytes = ParamLayout.alignUp(frame, 16);
        }

        int declareParam(Map<String, Sym> scope, Param p) {
            if (p.sizeBytes() > ParamLayout.MAX_BYTES) {
                throw new DecodeError(p.pos(), "parameter '" + p.name() + "' is " + p.sizeBytes()
                        + " bytes, more than the " + ParamLayout.MAX_BYTES + " bytes of parameters a call can pass");
            }
            if (p.space() == StateSpace.REG) {
                // Old-style register parameters: keep a frame slot too so calls can copy them.
                int off = allocFrame((int) p.sizeBytes(), p.effectiveAlign());
                scope.put(p.name(), new Sym(SymKind.LOCAL, off, p.type().bits));
                return off;
            }
            int off = allocFrame((int) Math.max(1, p.sizeBytes()), p.effectiveAlign());
            scope.put(p.name(), new Sym(SymKind.LOCAL, off, 64));
            return off;
        }

        int allocFrame(int size, int align) {
            frame = ParamLayout.alignUp(frame, Math.max(1, align));
            int off = frame;
            if (size > Engine.MAX_LOCAL_BYTES - frame) {
                throw new DecodeError(fi.function.pos(), "function '" + fi.function.name() + "' needs more than the "
                        + Engine.MAX_LOCAL_BYTES + " bytes of local memory a thread may use");
            }
            frame += size;
            return off;
        }

        Sym lookup(String name) {
            for (Map<String, Sym> s : scopes) {
                Sym sym = s.get(name);
                if (sym != null) {
                    return sym;
                }
            }
            return layout.globals.get(name);
        }

        void block(Block b, boolean nested) {
            if (nested) {
                scopes.push(new HashMap<>());
            }
            // Every instruction becomes one op, so each label's op index is known before any
            // branch of the block (forward ones included) is decoded.
            Map<String, Integer> labels = new HashMap<>();
            int pc = ops.size();
            for (Statement s : b.statements()) {
                if (s instanceof Statement.Label l) {
                    labels.put(l.name(), pc);
                } else if (s instanceof Instruction) {
                    pc++;
                } else if (s instanceof Block inner) {
                    pc += instructions(inner);
                }
            }
            labelScopes.push(labels);
            for (Statement s : b.statements()) {
                if (s instanceof VarDecl v) {
                    declare(v);
                } else if (s instanceof Block inner) {
                    block(inner, true);
                } else if (s instanceof Instruction i) {
                    emit(i);
                }
            }
            labelScopes.pop();
            if (nested) {
                scopes.pop();
            }
        }

        /** The instructions of a block, nested blocks included: the ops it decodes to. */
        static int instructions(Block b) {
            int n = 0;
            for (Statement s : b.statements()) {
                if (s instanceof Instruction) {
                    n++;
                } else if (s instanceof Block inner) {
                    n += instructions(inner);
                }
            }
            return n;
        }

        void declare(VarDecl v) {
            Map<String, Sym> scope = scopes.peek();
            for (VarDecl.Declarator d : v.declarators()) {
                switch (v.space()) {
                    case REG -> {
                        int bits = v.type() == DataType.PRED ? 1 : v.type().bits * v.vectorWidth();
                        if (d.isRange()) {
                            for (int k = 0; k < d.rangeCount(); k++) {
                                scope.put(d.name() + k, new Sym(SymKind.REG, regBits.size(), bits));
                                regBits.add(bits);
                            }
                        } else {
                            scope.put(d.name(), new Sym(SymKind.REG, regBits.size(), bits));
                            regBits.add(bits);
                        }
                    }
                    case LOCAL, PARAM -> {
                        int off = allocFrame((int) Math.max(1, ModuleLayout.sizeWithin(v, d, frame, Engine.MAX_LOCAL_BYTES,
                                "local")), v.effectiveAlign());
                        scope.put(d.name(), new Sym(SymKind.LOCAL, off, 64));
                    }
                    case SHARED, SHARED_CTA, SHARED_CLUSTER ->
                            scope.put(d.name(), new Sym(SymKind.SHARED, layout.sharedOffsets.get(d), 32));
                    default -> throw new DecodeError(d.pos(), "declaration of " + v.space().spelling
                            + " variable '" + d.name() + "' inside a function is not supported");
                }
            }
        }

        // ------------------------------------------------------------ instructions

        void emit(Instruction i) {
            Draft op;
            try {
                op = build(i);
            } catch (DecodeError e) {
                op = unsupported(i, e.getMessage());
            }
            if (op == null) {
                op = unsupported(i, "instruction '" + i.mnemonic() + "' is not supported");
            }
            op.owner = fi.index;
            if (i.guard() != null && op.code != OpCode.UNSUPPORTED) {
                op.guard = reg(i.guard().predicate());
                op.guardNegated = i.guard().negated();
            }
            ops.add(op.op());
        }

        /** An instruction that runs only to stop the run with {@code message} (see {@link OpForm.Unsupported}). */
        Draft unsupported(Instruction i, String message) {
            Draft op = new Draft(OpCode.UNSUPPORTED, i);
            op.form = new OpForm.Unsupported(message);
            return op;
        }

        int reg(Operand o) {
            if (o instanceof Operand.Register r) {
                Sym s = lookup(r.name());
                if (s == null || s.kind() != SymKind.REG) {
                    throw new DecodeError(r.pos(), "unknown register '" + r.name() + "'");
                }
                return (int) s.value();
            }
            if (o instanceof Operand.Sink) {
                return -1;
            }
            throw new DecodeError(o.pos(), "expected a register");
        }

        void dsts(Draft op, Operand... os) {
            op.dst = new int[os.length];
            op.dstBits = new int[os.length];
            for (int k = 0; k < os.length; k++) {
                op.dst[k] = reg(os[k]);
                op.dstBits[k] = op.dst[k] < 0 ? 64 : regBits.get(op.dst[k]);
            }
        }

        void srcs(Draft op, DataType t, List<Operand> os) {
            int n = os.size();
            op.srcKind = new int[n];
            op.src = new int[n];
            op.imm = new long[n];
            op.srcNegated = new boolean[n];
            op.sreg = new io.ptxrun.ast.SpecialRegister[n];
            op.sregComp = new char[n];
            for (int k = 0; k < n; k++) {
                Operand o = os.get(k);
                if (o instanceof Operand.Negated neg && !neg.arithmetic()) {
                    op.srcNegated[k] = true;
                    o = neg.operand();
                }
                if (o instanceof Operand.Register r) {
                    op.srcKind[k] = Op.REG;
                    op.src[k] = reg(r);
                } else if (o instanceof Operand.IntImm || o instanceof Operand.FloatImm) {
                    op.srcKind[k] = Op.IMM;
                    op.imm[k] = immBits(o, t);
                } else if (o instanceof Operand.SpecialReg sr) {
                    op.srcKind[k] = Op.SREG;
                    op.sreg[k] = sr.register();
                    op.sregComp[k] = sr.component();
                } else if (o instanceof Operand.Symbol s) {
                    Sym sym = lookup(s.name());
                    if (sym == null) {
                        throw new DecodeError(s.pos(), "unknown symbol '" + s.name() + "'");
                    }
                    if (sym.kind() == SymKind.REG) {
                        op.srcKind[k] = Op.REG;
                        op.src[k] = (int) sym.value();
                    } else if (sym.kind() == SymKind.LOCAL) {
                        op.srcKind[k] = Op.FRAME;
                        op.imm[k] = sym.value() + s.offset() + (s.generic() ? Space.LOCAL.window : 0);
                    } else {
                        op.srcKind[k] = Op.IMM;
                        long base = s.generic() ? toGeneric(sym.kind(), sym.value()) : sym.value();
                        op.imm[k] = base + s.offset();
                    }
                } else {
                    throw new DecodeError(o.pos(), "operand form not supported here");
                }
            }
        }

        void srcs(Draft op, DataType t, Operand... os) {
            srcs(op, t, List.of(os));
        }

        /**
         * ldmatrix / stmatrix: the .m8n8 .b16 form (the .m16n8 / .m16n16 8-bit forms of sm_100 are
         * not run); the fragment vector holds one register per matrix.
         */
        Draft matrixMove(Instruction i) {
            boolean store = i.opcode() == io.ptxrun.ast.Opcode.STMATRIX;
            java.util.Set<String> qs = new java.util.HashSet<>();
            for (Qual q : i.qualifiers()) {
                qs.add(q.text());
            }
            if (!qs.contains(".m8n8") || !qs.contains(".b16")) {
                throw new DecodeError(i.pos(), "only the .m8n8 .b16 form of " + i.opcode().spelling + " is supported");
            }
            int count = qs.contains(".x4") ? 4 : qs.contains(".x2") ? 2 : 1;
            List<Operand> os = i.operands();
            Operand fragment = os.get(store ? 1 : 0);
            List<Operand> regs = fragment instanceof Operand.Vector v ? v.elements() : List.of(fragment);
            if (regs.size() != count) {
                throw new DecodeError(fragment.pos(), "the fragment of ." + "x" + count + " is " + count
                        + " registers, not " + regs.size());
            }
            Draft op = new Draft(OpCode.MATRIX_MOVE, i, address(space(i.space()), os.get(store ? 0 : 1)));
            op.type = DataType.B32;
            op.form = new WarpMatrixOps.MoveForm(count, store, qs.contains(".trans"));
            if (store) {
                srcs(op, DataType.B32, regs);
            } else {
                dsts(op, regs.toArray(new Operand[0]));
            }
            return op;
        }

        /** The space an instruction names, as the engine sees it (see {@link Space}). */
        Space space(StateSpace s) {
            return switch (s) {
                case GLOBAL -> Space.GLOBAL;
                case SHARED, SHARED_CTA, SHARED_CLUSTER -> Space.SHARED;
                case LOCAL -> Space.LOCAL;
                case CONST -> Space.CONST;
                case PARAM, PARAM_ENTRY, PARAM_FUNC -> kernel ? Space.KPARAM : Space.LOCAL;
                case GENERIC -> Space.GENERIC;
                default -> throw new DecodeError(SourcePos.NONE, "state space " + s.spelling + " not supported");
            };
        }

        /** The access of an address operand in {@code space} (a frame or parameter symbol may name its own space). */
        MemoryAccess address(Space space, Operand o) {
            if (!(o instanceof Operand.Address a)) {
                throw new DecodeError(o.pos(), "expected an address");
            }
            if (a.base() == null) {
                return MemoryAccess.at(space, MemoryAccess.ABSOLUTE, -1, a.offset());
            }
            if (a.base() instanceof Operand.Register r) {
                Sym s = lookup(r.name());
                if (s != null && s.kind() != SymKind.REG) {
                    return symbolAddress(space, s, a.offset());
                }
                return MemoryAccess.at(space, MemoryAccess.REGISTER, reg(r), a.offset());
            }
            if (a.base() instanceof Operand.Symbol sy) {
                Sym s = lookup(sy.name());
                if (s == null) {
                    throw new DecodeError(sy.pos(), "unknown symbol '" + sy.name() + "'");
                }
                if (s.kind() == SymKind.REG) {
                    return MemoryAccess.at(space, MemoryAccess.REGISTER, (int) s.value(), a.offset() + sy.offset());
                }
                return symbolAddress(space, s, a.offset() + sy.offset());
            }
            throw new DecodeError(o.pos(), "address form not supported");
        }

        MemoryAccess symbolAddress(Space space, Sym s, long offset) {
            boolean generic = space == Space.GENERIC;
            int kind;
            switch (s.kind()) {
                case LOCAL -> {
                    kind = generic ? MemoryAccess.FRAME_GENERIC : MemoryAccess.FRAME;
                    if (!generic) {
                        space = Space.LOCAL;
                    }
                }
                case KPARAM -> {
                    kind = MemoryAccess.ABSOLUTE;
                    if (!generic) {
                        space = Space.KPARAM;
                    }
                    offset += generic ? Space.KPARAM.window : 0;
                }
                default -> {
                    kind = MemoryAccess.ABSOLUTE;
                    offset += generic ? toGeneric(s.kind(), s.value()) : s.value();
                }
            }
            if (s.kind() == SymKind.LOCAL || s.kind() == SymKind.KPARAM) {
                offset += s.value();
            }
            return MemoryAccess.at(space, kind, -1, offset);
        }

        /**
         * The memory order of ld/st/atom/red: .relaxed, .acquire, .release, .acq_rel, .volatile
         * and .mmio make an ld/st strong, every atom/red is; acquire and release say how it orders
         * the thread's other accesses.
         */
        MemoryAccess ordered(MemoryAccess access, Instruction i, boolean atomic) {
            boolean strong = atomic || i.has(Qualifier.RELAXED) || i.has(Qualifier.ACQUIRE)
                    || i.has(Qualifier.RELEASE) || i.has(Qualifier.VOLATILE) || i.has(Qualifier.MMIO);
            boolean acqRel = i.has(Qualifier.ACQ_REL);
            return access.withOrder(strong, acqRel || i.has(Qualifier.ACQUIRE), acqRel || i.has(Qualifier.RELEASE));
        }

        List<Operand> vectorOf(Operand o) {
            return o instanceof Operand.Vector v ? v.elements() : List.of(o);
        }

        int compare(Instruction i) {
            return i.first(Qualifier.Category.COMPARE).map(q -> q.kind().ordinal()).orElse(-1);
        }

        Draft simple(OpCode code, Instruction i, DataType t) {
            return simple(code, i, t, MemoryAccess.NONE);
        }

        /** A simple op that names a space (cvta, isspacep, mapa, getctarank). */
        Draft simple(OpCode code, Instruction i, DataType t, MemoryAccess space) {
            Draft op = new Draft(code, i, space, Modifiers.of(i));
            op.type = t;
            List<Operand> os = i.operands();
            dsts(op, os.get(0));
            srcs(op, t, os.subList(1, os.size()));
            return op;
        }

        Draft build(Instruction i) {
            DataType t = i.type();
            List<Operand> os = i.operands();
            boolean fl = t != null && t.isFloat();
            switch (i.opcode()) {
                case MOV: {
                    if (os.get(0) instanceof Operand.Vector v) {
                        Draft op = new Draft(OpCode.MOV_UNPACK, i);
                        op.type = t;
                        dsts(op, v.elements().toArray(new Operand[0]));
                        srcs(op, t, os.get(1));
                        return op;
                    }
                    if (os.get(1) instanceof Operand.Vector v) {
                        Draft op = new Draft(OpCode.MOV_PACK, i);
                        op.type = t;
                        dsts(op, os.get(0));
                        srcs(op, DataType.B64, v.elements());
                        return op;
                    }
                    return simple(OpCode.MOV, i, t);
                }
                case LD:
                case LDU:
                case ST: {
                    boolean store = i.opcode() == io.ptxrun.ast.Opcode.ST;
                    MemoryAccess access = address(space(i.space()), store ? os.get(0) : os.get(1));
                    if (i.space().isParam() && access.space() == Space.LOCAL) {
                        access = access.inCallFrame();
                    }
                    Draft op = new Draft(store ? OpCode.ST : OpCode.LD, i,
                            ordered(access.withVector(i.vectorWidth()), i, false));
                    op.type = t;
                    Operand data = store ? os.get(1) : os.get(0);
                    List<Operand> elems = vectorOf(data);
                    if (store) {
                        srcs(op, t, elems);
                    } else {
                        dsts(op, elems.toArray(new Operand[0]));
                    }
                    return op;
                }
                case CVTA: {
                    return simple(i.has(Qualifier.TO) ? OpCode.CVTA_TO : OpCode.CVTA, i, t,
                            MemoryAccess.inSpace(space(i.space())));
                }
                case ISSPACEP: {
                    return simple(OpCode.ISSPACEP, i, DataType.U64, MemoryAccess.inSpace(space(i.space())));
                }
                case ADD:
                    return simple(fl ? OpCode.FADD : OpCode.ADD, i, t);
                case SUB:
                    return simple(fl ? OpCode.FSUB : OpCode.SUB, i, t);
                case ADDC:
                    return simple(OpCode.ADDC, i, t);
                case SUBC:
                    return simple(OpCode.SUBC, i, t);
                case MUL:
                case MAD: {
                    boolean mul = i.opcode() == io.ptxrun.ast.Opcode.MUL;
                    Draft op = simple(fl ? (mul ? OpCode.FMUL : OpCode.FMA) : (mul ? OpCode.MUL : OpCode.MAD), i, t);
                    op.variant = i.has(Qualifier.HI) ? Op.HI : i.has(Qualifier.WIDE) ? Op.WIDE : Op.LO;
                    return op;
                }
                case FMA:
                    return simple(OpCode.FMA, i, t);
                case DIV: {
                    Draft op = simple(fl ? OpCode.FDIV : OpCode.DIV, i, t);
                    op.option = i.has(Qualifier.FULL);
                    return op;
                }
                case REM:
                    return simple(OpCode.REM, i, t);
                case MIN:
                case MAX: {
                    boolean min = i.opcode() == io.ptxrun.ast.Opcode.MIN;
                    Draft op = simple(fl ? (min ? OpCode.FMIN : OpCode.FMAX) : (min ? OpCode.MIN : OpCode.MAX), i, t);
                    op.option = i.has(Qualifier.NAN_PROPAGATE);
                    op.variant = i.has(Qualifier.XORSIGN) ? 1 : 0;
                    return op;
                }
                case ABS:
                    return simple(fl ? OpCode.FABS : OpCode.ABS, i, t);
                case NEG:
                    return simple(fl ? OpCode.FNEG : OpCode.NEG, i, t);
                case AND:
                    return simple(OpCode.AND, i, t);
                case OR:
                    return simple(OpCode.OR, i, t);
                case XOR:
                    return simple(OpCode.XOR, i, t);
                case NOT:
                    return simple(OpCode.NOT, i, t);
                case CNOT:
                    return simple(OpCode.CNOT, i, t);
                case SHL:
                    return shift(OpCode.SHL, i, t);
                case SHR:
                    return shift(OpCode.SHR, i, t);
                case POPC:
                    return simple(OpCode.POPC, i, t);
                case CLZ:
                    return simple(OpCode.CLZ, i, t);
                case BREV:
                    return simple(OpCode.BREV, i, t);
                case BFE:
                    return shift(OpCode.BFE, i, t);
                case BFI:
                    return shift(OpCode.BFI, i, t);
                case BFIND: {
                    Draft op = simple(OpCode.BFIND, i, t);
                    op.option = i.has(Qualifier.SHIFTAMT);
                    return op;
                }
                case PRMT: {
                    Draft op = simple(OpCode.PRMT, i, DataType.B32);
                    op.variant = i.qualifiers().stream().filter(q -> q.kind().category == Qualifier.Category.MODIFIER
                            || q.kind() == Qualifier.OTHER).map(Qual::text).findFirst().map(Decoder::prmtMode).orElse(0);
                    return op;
                }
                case LOP3:
                    return simple(OpCode.LOP3, i, DataType.B32);
                case SHF: {
                    Draft op = simple(OpCode.SHF, i, DataType.B32);
                    op.option = i.has(Qualifier.CLAMP);
                    op.variant = i.qualifiers().stream().anyMatch(q -> q.text().equals(".l")) ? 0 : 1;
                    return op;
                }
                case SETP: {
                    Draft op = new Draft(OpCode.SETP, i, MemoryAccess.NONE, Modifiers.flushOnly(i));
                    op.type = t;
                    op.variant = compare(i);
                    op.boolOp = boolOp(i);
                    if (os.get(0) instanceof Operand.PredPair pp) {
                        dsts(op, pp.first(), pp.second());
                    } else {
                        dsts(op, os.get(0));
                    }
                    List<Operand> rest = new ArrayList<>(os.subList(1, os.size()));
                    srcs(op, t, rest);
                    if (rest.size() > 2) {
                        op.srcKind[2] = op.srcKind[2];
                        op.imm[2] = rest.get(2) instanceof Operand.IntImm im ? im.value() : op.imm[2];
                    }
                    return op;
                }
                case SET: {
                    Draft op = simple(OpCode.SET, i, i.types().get(1));
                    op.srcType = i.types().get(0);
                    op.variant = compare(i);
                    op.boolOp = boolOp(i);
                    return op;
                }
                case SELP:
                    return simple(OpCode.SELP, i, t);
                case SLCT: {
                    Draft op = simple(OpCode.SLCT, i, i.types().get(0));
                    op.srcType = i.types().get(1);
                    return op;
                }
                case CVT: {
                    List<DataType> ts = i.types();
                    Draft op = simple(OpCode.CVT, i, ts.get(0));
                    op.srcType = ts.get(1);
                    op.option = i.has(Qualifier.RNI) || i.has(Qualifier.RZI) || i.has(Qualifier.RMI) || i.has(Qualifier.RPI);
                    // Re-decode the source immediate with the source type.
                    srcs(op, op.srcType, os.subList(1, os.size()));
                    return op;
                }
                case COPYSIGN:
                    return simple(OpCode.COPYSIGN, i, t);
                case TESTP: {
                    Draft op = simple(OpCode.TESTP, i, t);
                    op.variant = i.qualifiers().stream().filter(q -> q.kind() == Qualifier.OTHER || q.kind().category
                            == Qualifier.Category.MODIFIER).map(Qual::text).findFirst().map(Decoder::testpMode).orElse(0);
                    return op;
                }
                case SQRT:
                    return simple(OpCode.SQRT, i, t);
                case RSQRT:
                    return simple(OpCode.RSQRT, i, t);
                case RCP:
                    return simple(OpCode.RCP, i, t);
                case EX2:
                    return simple(OpCode.EX2, i, t);
                case LG2:
                    return simple(OpCode.LG2, i, t);
                case SIN:
                    return simple(OpCode.SIN, i, t);
                case COS:
                    return simple(OpCode.COS, i, t);
                case TANH:
                    return simple(OpCode.TANH, i, t);
                case ATOM:
                case RED: {
                    boolean red = i.opcode() == io.ptxrun.ast.Opcode.RED;
                    Space space = space(i.space());
                    int k = red ? 0 : 1;
                    Draft op = new Draft(red ? OpCode.RED : OpCode.ATOM, i, ordered(address(space, os.get(k)), i, true));
                    op.type = t;
                    op.form = Atomics.Operation.of(i);
                    if (!red) {
                        dsts(op, os.get(0));
                    }
                    srcs(op, t, os.subList(k + 1, os.size()));
                    return op;
                }
                case BRA: {
                    Draft op = new Draft(OpCode.BRA, i);
                    Operand tgt = os.get(0);
                    if (!(tgt instanceof Operand.Symbol s)) {
                        throw new DecodeError(i.pos(), "branch target must be a label");
                    }
                    for (Map<String, Integer> scope : labelScopes) {
                        Integer label = scope.get(s.name());
                        if (label != null) {
                            op.target = label;
                            return op;
                        }
                    }
                    throw new DecodeError(i.pos(), "unknown label '" + s.name() + "'");
                }
                case CALL:
                    return call(i);
                case RET: {
                    return new Draft(OpCode.RET, i);
                }
                case EXIT:
                    return new Draft(OpCode.EXIT, i);
                case TRAP:
                    return new Draft(OpCode.TRAP, i);
                case BAR:
                case BARRIER: {
                    boolean arrive = i.has(Qualifier.ARRIVE);
                    // bar is always .aligned (barrier names it).
                    boolean aligned = i.opcode() == io.ptxrun.ast.Opcode.BAR || i.has(Qualifier.ALIGNED);
                    if (i.has(Qualifier.RED)) {
                        Draft op = new Draft(OpCode.BAR_RED, i);
                        op.type = DataType.U32;
                        op.option = aligned;
                        op.form = i.has(Qualifier.POPC) ? Barriers.Reduction.POPC
                                : i.has(Qualifier.AND) ? Barriers.Reduction.AND : Barriers.Reduction.OR;
                        dsts(op, os.get(0));
                        srcs(op, DataType.U32, os.subList(1, os.size()));
                        return op;
                    }
                    Draft op = new Draft(arrive ? OpCode.BAR_ARRIVE : OpCode.BAR, i);
                    op.type = DataType.U32;
                    op.option = aligned;
                    srcs(op, DataType.U32, os);
                    return op;
                }
                case CP_ASYNC:
                case CP_ASYNC_BULK:
                case CP_REDUCE_ASYNC_BULK:
                case CP_ASYNC_BULK_TENSOR:
                case CP_REDUCE_ASYNC_BULK_TENSOR:
                case CP_ASYNC_BULK_PREFETCH_TENSOR:
                case CP_ASYNC_BULK_COMMIT_GROUP:
                case CP_ASYNC_BULK_WAIT_GROUP:
                case CP_ASYNC_COMMIT_GROUP:
                case CP_ASYNC_WAIT_GROUP:
                case CP_ASYNC_WAIT_ALL:
                case TENSORMAP_REPLACE:
                case TENSORMAP_CP_FENCEPROXY:
                    return copies.build(i);
                case MBARRIER_INIT:
                case MBARRIER_INVAL:
                case MBARRIER_ARRIVE:
                case MBARRIER_ARRIVE_DROP:
                case MBARRIER_TEST_WAIT:
                case MBARRIER_TRY_WAIT:
                case MBARRIER_EXPECT_TX:
                case MBARRIER_COMPLETE_TX:
                case MBARRIER_PENDING_COUNT:
                case CP_ASYNC_MBARRIER_ARRIVE: {
                    MBarriers.Form form = new MBarriers.Form(i.opcode(), i.has(Qualifier.NO_COMPLETE),
                            i.has(Qualifier.NOINC), i.has(Qualifier.PARITY), i.has(Qualifier.EXPECT_TX),
                            i.has(Qualifier.RELAXED));
                    Space space = space(i.space());
                    int at = -1;
                    for (int k = 0; k < os.size(); k++) {
                        if (os.get(k) instanceof Operand.Address) {
                            at = k;
                            break;
                        }
                    }
                    Draft op = new Draft(OpCode.MBARRIER, i,
                            at >= 0 ? address(space, os.get(at)) : MemoryAccess.inSpace(space));
                    op.type = DataType.B64;
                    op.form = form;
                    if (at >= 0) {
                        dsts(op, os.subList(0, at).toArray(new Operand[0]));
                        srcs(op, DataType.B64, os.subList(at + 1, os.size()));
                    } else {
                        dsts(op, os.get(0));
                        srcs(op, DataType.B64, os.subList(1, os.size()));
                    }
                    return op;
                }
                case GETCTARANK: {
                    return simple(OpCode.GETCTARANK, i, t, MemoryAccess.inSpace(space(i.space())));
                }
                case MAPA: {
                    return simple(OpCode.MAPA, i, t, MemoryAccess.inSpace(space(i.space())));
                }
                case BARRIER_CLUSTER_ARRIVE:
                case BARRIER_CLUSTER_WAIT: {
                    Draft op = new Draft(i.opcode() == io.ptxrun.ast.Opcode.BARRIER_CLUSTER_ARRIVE
                            ? OpCode.CLUSTER_ARRIVE : OpCode.CLUSTER_WAIT, i);
                    op.option = i.has(Qualifier.RELAXED);
                    return op;
                }
                case BAR_WARP_SYNC: {
                    Draft op = new Draft(OpCode.BAR_WARP, i);
                    srcs(op, DataType.U32, os);
                    return op;
                }
                case FENCE:
                    if (i.has(Qualifier.TENSORMAP_GENERIC) && i.has(Qualifier.ACQUIRE) && !os.isEmpty()) {
                        return new Draft(OpCode.TENSORMAP_ACQUIRE, i, address(Space.GENERIC, os.get(0)));
                    }
                    // fence.sc / fence.acq_rel (with membar, its older spelling) order memory; the proxy
                    // fences and fence.mbarrier_init do not take part in thread-to-thread ordering here.
                    if (i.has(Qualifier.PROXY) && i.has(Qualifier.ASYNC)) {
                        // fence.proxy.async: the thread's generic accesses and the async proxy's.
                        return new Draft(OpCode.FENCE_PROXY_ASYNC, i);
                    }
                    return new Draft(i.has(Qualifier.PROXY) || i.has(Qualifier.MBARRIER_INIT) ? OpCode.NOP : OpCode.FENCE, i);
                case MEMBAR:
                    return new Draft(OpCode.FENCE, i);
                case NANOSLEEP:
                case PREFETCH:
                case PREFETCHU:
                case CP_ASYNC_BULK_PREFETCH:
                case GRIDDEPCONTROL_WAIT:
                case GRIDDEPCONTROL_LAUNCH_DEPENDENTS:
                    return new Draft(OpCode.NOP, i);
                case WGMMA_FENCE:
                case WGMMA_COMMIT_GROUP:
                case WGMMA_WAIT_GROUP:
                case WGMMA_MMA_ASYNC:
                case SETMAXNREG: {
                    Draft op = new Draft(OpCode.WARPGROUP, i);
                    op.form = WarpgroupForm.decode(i, this, op);
                    return op;
                }
                case WMMA_LOAD:
                case WMMA_MMA:
                case WMMA_STORE: {
                    WarpMatrixOps.Decoded m = WarpMatrixOps.decode(i);
                    Space space = space(i.space());
                    Draft op = new Draft(OpCode.WMMA, i,
                            m.address() != null ? address(space, m.address()) : MemoryAccess.inSpace(space));
                    op.form = m.form();
                    op.type = m.form().type();
                    dsts(op, m.destinations().toArray(new Operand[0]));
                    srcs(op, DataType.B32, m.sources());
                    return op;
                }
                case LDMATRIX:
                case STMATRIX:
                    return matrixMove(i);
                case SHFL: {
                    Draft op = new Draft(OpCode.SHFL, i);
                    op.type = DataType.B32;
                    op.option = i.has(Qualifier.SYNC);
                    op.form = i.has(Qualifier.UP) ? WarpOps.ShuffleMode.UP : i.has(Qualifier.DOWN) ? WarpOps.ShuffleMode.DOWN
                            : i.has(Qualifier.BFLY) ? WarpOps.ShuffleMode.BFLY : WarpOps.ShuffleMode.IDX;
                    if (os.get(0) instanceof Operand.PredPair pp) {
                        dsts(op, pp.first(), pp.second());
                    } else {
                        dsts(op, os.get(0));
                    }
                    srcs(op, DataType.B32, os.subList(1, os.size()));
                    return op;
                }
                case VOTE: {
                    Draft op = new Draft(OpCode.VOTE, i);
                    op.type = t;
                    op.option = i.has(Qualifier.SYNC);
                    op.form = i.has(Qualifier.ALL) ? WarpOps.VoteMode.ALL : i.has(Qualifier.ANY) ? WarpOps.VoteMode.ANY
                            : i.has(Qualifier.UNI) ? WarpOps.VoteMode.UNI : WarpOps.VoteMode.BALLOT;
                    dsts(op, os.get(0));
                    srcs(op, DataType.PRED, os.subList(1, os.size()));
                    return op;
                }
                case SAD:
                    return simple(OpCode.SAD, i, t);
                case MUL24:
                case MAD24: {
                    Draft op = simple(i.opcode() == io.ptxrun.ast.Opcode.MUL24 ? OpCode.MUL24 : OpCode.MAD24, i, t);
                    op.variant = i.has(Qualifier.HI) ? Op.HI : Op.LO;
                    return op;
                }
                case BMSK: {
                    Draft op = simple(OpCode.BMSK, i, DataType.B32);
                    op.option = i.has(Qualifier.CLAMP);
                    return op;
                }
                case FNS:
                    return simple(OpCode.FNS, i, DataType.B32);
                case CREATEPOLICY: {
                    // Cache policies only steer caching; any value is a valid policy here.
                    Draft op = new Draft(OpCode.MOV, i);
                    op.type = DataType.B64;
                    dsts(op, os.get(0));
                    srcs(op, DataType.B64, new Operand.IntImm(i.pos(), 0));
                    return op;
                }
                case MADC: {
                    Draft op = simple(OpCode.MADC, i, t);
                    op.variant = i.has(Qualifier.HI) ? Op.HI : Op.LO;
                    return op;
                }
                case REDUX: {
                    Draft op = simple(OpCode.REDUX, i, t);
                    op.option = i.has(Qualifier.SYNC);
                    Atomics.Operation o = Atomics.Operation.of(i);
                    op.form = o == null ? WarpOps.ReduxOp.XOR : switch (o) {
                        case ADD -> WarpOps.ReduxOp.ADD;
                        case MIN -> WarpOps.ReduxOp.MIN;
                        case MAX -> WarpOps.ReduxOp.MAX;
                        case AND -> WarpOps.ReduxOp.AND;
                        case OR -> WarpOps.ReduxOp.OR;
                        default -> WarpOps.ReduxOp.XOR;
                    };
                    return op;
                }
                case MATCH: {
                    Draft op = new Draft(OpCode.MATCH, i);
                    op.type = t;
                    op.option = i.has(Qualifier.SYNC);
                    op.form = i.has(Qualifier.ALL) ? WarpOps.MatchMode.ALL : WarpOps.MatchMode.ANY;
                    if (os.get(0) instanceof Operand.PredPair pp) {
                        dsts(op, pp.first(), pp.second());
                    } else {
                        dsts(op, os.get(0));
                    }
                    srcs(op, t, os.subList(1, os.size()));
                    return op;
                }
                case ELECT: {
                    Draft op = new Draft(OpCode.ELECT, i);
                    op.type = DataType.U32;
                    op.option = i.has(Qualifier.SYNC);
                    if (os.get(0) instanceof Operand.PredPair pp) {
                        dsts(op, pp.first(), pp.second());
                    } else {
                        dsts(op, os.get(0));
                    }
                    srcs(op, DataType.U32, os.subList(1, os.size()));
                    return op;
                }
                case ACTIVEMASK: {
                    Draft op = new Draft(OpCode.ACTIVEMASK, i);
                    dsts(op, os.get(0));
                    return op;
                }
                default:
                    return null;
            }
        }

        Draft shift(OpCode code, Instruction i, DataType t) {
            Draft op = new Draft(code, i);
            op.type = t;
            List<Operand> os = i.operands();
            dsts(op, os.get(0));
            // Shift amounts and bit positions are .u32 whatever the data type is.
            srcs(op, t, os.subList(1, os.size()));
            return op;
        }

        Draft call(Instruction i) {
            Draft op = new Draft(OpCode.CALL, i);
            List<Operand> results = List.of();
            List<Operand> args = List.of();
            Operand target = null;
            for (Operand o : i.operands()) {
                if (o instanceof Operand.ArgList al) {
                    if (target == null) {
                        results = al.elements();
                    } else {
                        args = al.elements();
                    }
                } else if (target == null) {
                    target = o;
                }
            }
            if (target instanceof Operand.Register r) {
                // An indirect call: the function address is source 0.
                srcs(op, DataType.U64, r);
                op.form = new CallForm(-1, frameOffsets(args, i), frameOffsets(results, i));
                return op;
            }
            if (!(target instanceof Operand.Symbol ts)) {
                throw new DecodeError(i.pos(), "call target form not supported");
            }
            FuncInfo callee = program.byName.get(ts.name());
            if (callee == null) {
                int library = DeviceLibrary.lookup(ts.name());
                if (library < 0) {
                    throw new DecodeError(i.pos(), "call of '" + ts.name() + "', which has no body in this module"
                            + " (of the external CUDA device-library functions, ptxrun provides "
                            + String.join(", ", DeviceLibrary.names()) + ")");
                }
                Draft lib = new Draft(OpCode.LIBRARY_CALL, i);
                lib.form = new CallForm(library, frameOffsets(args, i), frameOffsets(results, i));
                return lib;
            }
            op.form = new CallForm(callee.index, frameOffsets(args, i), frameOffsets(results, i));
            return op;
        }

        int[] frameOffsets(List<Operand> os, Instruction i) {
            int[] out = new int[os.size()];
            for (int k = 0; k < os.size(); k++) {
                Operand o = os.get(k);
                String name = o instanceof Operand.Symbol s ? s.name() : o instanceof Operand.Register r ? r.name() : null;
                Sym sym = name == null ? null : lookup(name);
                if (sym == null || sym.kind() != SymKind.LOCAL) {
                    throw new DecodeError(i.pos(), "call arguments must be .param variables");
                }
                out[k] = (int) sym.value();
            }
            return out;
        }
    }


    static int boolOp(Instruction i) {
        if (i.has(Qualifier.AND)) {
            return 1;
        }
        if (i.has(Qualifier.OR)) {
            return 2;
        }
        if (i.has(Qualifier.XOR)) {
            return 3;
        }
        return 0;
    }

    static int prmtMode(String text) {
        return switch (text) {
            case ".f4e" -> 1;
            case ".b4e" -> 2;
            case ".rc8" -> 3;
            case ".ecl" -> 4;
            case ".ecr" -> 5;
            case ".rc16" -> 6;
            default -> 0;
        };
    }

    static int testpMode(String text) {
        return switch (text) {
            case ".finite" -> 0;
            case ".infinite" -> 1;
            case ".number" -> 2;
            case ".notanumber" -> 3;
            case ".normal" -> 4;
            case ".subnormal" -> 5;
            default -> 0;
        };
    }
}
