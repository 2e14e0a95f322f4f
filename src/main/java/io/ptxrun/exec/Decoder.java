package io.ptxrun.exec;

import io.ptxrun.ast.Block;
import io.ptxrun.ast.DataType;
import io.ptxrun.ast.Function;
import io.ptxrun.ast.Instruction;
import io.ptxrun.ast.Module;
import io.ptxrun.ast.Operand;
import io.ptxrun.ast.Param;
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
 * messages. The decoder keeps what the families share (symbols and their scopes, labels, operands
 * and addresses, {@link FunctionDecoder}) and hands each instruction to its family's decoding
 * ({@link FunctionDecoder#build}).
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
        /**
         * By instruction: a plain ld whose destination register an atom.cas of the same function
         * compares against, the compare-and-swap loop idiom (see {@link
         * io.ptxrun.exec.order.MemoryOrder}).
         */
        boolean[] casCompared;
        /**
         * Whether an instruction can order threads of different clusters: an atomic, or a strong
         * access (the only writes that release to another cluster, {@link
         * io.ptxrun.exec.order.MemoryOrder#releaseAt}). Where none can, the hazard detector needs
         * fewer records of global reads ({@link io.ptxrun.exec.order.MemoryOrder.Launch}).
         */
        boolean ordersClusters;
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
        /** {@link Op}'s option, which the op's accessors name by family. */
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
        program.casCompared = casCompared(program);
        for (Op op : program.ops) {
            program.ordersClusters |= op.code == OpCode.ATOM || op.code == OpCode.RED || op.mem != null && op.mem.strong();
        }
        return program;
    }

    /** {@link Program#casCompared}, function by function. */
    private static boolean[] casCompared(Program program) {
        Op[] ops = program.ops;
        boolean[] marked = new boolean[ops.length];
        for (int f = 0; f < program.funcs.size(); f++) {
            int from = program.funcs.get(f).entryPc;
            int to = f + 1 < program.funcs.size() ? program.funcs.get(f + 1).entryPc : ops.length;
            java.util.Set<Integer> compared = new java.util.HashSet<>();
            for (int pc = from; pc < to; pc++) {
                Op op = ops[pc];
                if (op.code == OpCode.ATOM && op.form == Atomics.Operation.CAS && op.srcKind.length > 0
                        && op.srcKind[0] == Op.REG) {
                    compared.add(op.src[0]);
                }
            }
            for (int pc = from; pc < to && !compared.isEmpty(); pc++) {
                Op op = ops[pc];
                marked[pc] = op.code == OpCode.LD && !op.mem.strong() && op.dst.length == 1
                        && compared.contains(op.dst[0]);
            }
        }
        return marked;
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

        // Each family's decoding (build dispatches by opcode).
        private final LaneOpDecoding lanes = new LaneOpDecoding(this);
        private final MemoryDecoding memory = new MemoryDecoding(this);
        private final ControlDecoding control = new ControlDecoding(this);
        private final SyncDecoding sync = new SyncDecoding(this);
        private final WarpDecoding warp = new WarpDecoding(this);
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

        /** The most registers a function may declare (each is a slot of every warp's register file once used). */
        static final int MAX_REGISTERS = 1 << 22;

        void declare(VarDecl v) {
            Map<String, Sym> scope = scopes.peek();
            for (VarDecl.Declarator d : v.declarators()) {
                switch (v.space()) {
                    case REG -> {
                        int bits = v.type() == DataType.PRED ? 1 : v.type().bits * v.vectorWidth();
                        long count = d.isRange() ? d.rangeCount() : 1;
                        if (regBits.size() + count > MAX_REGISTERS) {
                            // (ptxas takes any count: its virtual registers cost nothing until used.)
                            throw new DecodeError(d.pos(), "function '" + fi.function.name() + "' declares more than"
                                    + " the " + MAX_REGISTERS + " registers ptxrun holds for a function ('" + d.name()
                                    + (d.isRange() ? "<" + d.rangeCount() + ">" : "") + "')");
                        }
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

        /**
         * The op of instruction i, by its family's decoding; null for an instruction the engine
         * does not run.
         */
        Draft build(Instruction i) {
            return switch (i.opcode()) {
                case LD, LDU, ST, ATOM, RED, CVTA, ISSPACEP, GETCTARANK, MAPA -> memory.build(i);
                case BRA, CALL, RET, EXIT, TRAP -> control.build(i);
                case BAR, BARRIER, BARRIER_CLUSTER_ARRIVE, BARRIER_CLUSTER_WAIT, BAR_WARP_SYNC, MBARRIER_INIT,
                        MBARRIER_INVAL, MBARRIER_ARRIVE, MBARRIER_ARRIVE_DROP, MBARRIER_TEST_WAIT, MBARRIER_TRY_WAIT,
                        MBARRIER_EXPECT_TX, MBARRIER_COMPLETE_TX, MBARRIER_PENDING_COUNT, CP_ASYNC_MBARRIER_ARRIVE,
                        FENCE, MEMBAR, NANOSLEEP, PREFETCH, PREFETCHU, CP_ASYNC_BULK_PREFETCH, GRIDDEPCONTROL_WAIT,
                        GRIDDEPCONTROL_LAUNCH_DEPENDENTS -> sync.build(i);
                case CP_ASYNC, CP_ASYNC_BULK, CP_REDUCE_ASYNC_BULK, CP_ASYNC_BULK_TENSOR, CP_REDUCE_ASYNC_BULK_TENSOR,
                        CP_ASYNC_BULK_PREFETCH_TENSOR, CP_ASYNC_BULK_COMMIT_GROUP, CP_ASYNC_BULK_WAIT_GROUP,
                        CP_ASYNC_COMMIT_GROUP, CP_ASYNC_WAIT_GROUP, CP_ASYNC_WAIT_ALL, TENSORMAP_REPLACE,
                        TENSORMAP_CP_FENCEPROXY, ST_ASYNC, RED_ASYNC -> copies.build(i);
                case SHFL, VOTE, REDUX, MATCH, ELECT, ACTIVEMASK, WMMA_LOAD, WMMA_MMA, WMMA_STORE, LDMATRIX, STMATRIX,
                        MOVMATRIX, MMA, WGMMA_FENCE, WGMMA_COMMIT_GROUP, WGMMA_WAIT_GROUP, WGMMA_MMA_ASYNC,
                        SETMAXNREG -> warp.build(i);
                default -> lanes.build(i);
            };
        }

        /** A destination that may be a predicate pair ({@code p|q}): both registers, else the one. */
        void predicateDsts(Draft op, Operand o) {
            if (o instanceof Operand.PredPair pp) {
                dsts(op, pp.first(), pp.second());
            } else {
                dsts(op, o);
            }
        }

        Program program() {
            return program;
        }
    }


}
