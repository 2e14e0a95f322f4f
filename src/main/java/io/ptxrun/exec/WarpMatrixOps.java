package io.ptxrun.exec;

import io.ptxrun.ast.DataType;
import io.ptxrun.ast.Instruction;
import io.ptxrun.ast.Operand;
import io.ptxrun.ast.Qual;
import io.ptxrun.ast.Qualifier;

import java.util.ArrayList;
import java.util.List;

import static io.ptxrun.exec.Bits.sx;
import static io.ptxrun.exec.Bits.zx;

/**
 * Warp-level matrix operations: wmma.load, wmma.mma and wmma.store (PTX ISA 9.7.14.4-9.7.14.5) for
 * the shapes m16n16k16, m8n32k16 and m32n8k16 with f16 or s8/u8 inputs and f16, f32 or s32
 * accumulators.
 *
 * <p><b>Fragment layout.</b> The ISA leaves the distribution of matrix elements over the fragment
 * registers unspecified; this engine uses one layout for every fragment. A matrix of R x C elements
 * (A: M x K, B: K x N, C and D: M x N) is numbered in logical row-major order, element (r, c) being
 * {@code r * C + c}, whatever its layout in memory. Lane {@code l} holds {@code E} elements (the
 * register count times the elements packed per register), and its fragment element {@code e} is
 * matrix element {@code (l * E + e) mod (R * C)}. Element {@code e} sits in register {@code e / P},
 * bits {@code (e mod P) * w} and up, where {@code P} is 32 / w elements of w bits per register
 * (halves: low half first, bytes: lowest byte first). Where the register counts hold more elements
 * than the matrix has (f16 A and B fragments: 16 halves a lane, 512 slots for at most 256 or 128
 * elements), the matrix repeats, so every copy holds the same value after a load; wmma.mma reads
 * each element from its first copy, the one in lane {@code idx / E}. Integer and accumulator
 * fragments hold each element exactly once.
 *
 * <p><b>Hazards.</b> Since the layout is unspecified, so is which lane moves which element: the
 * hazard detector takes a wmma.load's reads and a wmma.store's writes as lane 0's, standing for
 * the warp, one access per contiguous run of the matrix in memory. Races with other warps' accesses
 * are found as such; a lane of the same warp must order its own accesses of the matrix with the
 * warp's load or store as with lane 0's (bar.warp.sync, __syncwarp).
 *
 * <p>Because the layout does not depend on .row/.col, a fragment loaded as either layout is the same
 * logical matrix, and wmma.mma's layout qualifiers (which must match the loads) change nothing.
 *
 * <p><b>Arithmetic.</b> D is the tensor core's fixed-point sum of C and the 16 products of one
 * wmma.mma ({@link TensorCore}; run case wmma-f32-accumulation), an f16 D rounded from it to nearest
 * as mma.sync's is (run cases mma-sync-m16n8k16-f16, mma-sync-m16n8k8: wmma.mma runs on the same
 * tensor-core instructions). .satfinite turns infinities into the largest finite value of that sign
 * (NaNs stay NaNs). Integer products are exact and summed in 64 bits; the s32 result wraps, or
 * with .satfinite clamps to the s32 range.
 *
 * <p>The operations are warp-collective: they run only for a full, converged warp ({@link #run}
 * reports anything else), and all lanes must give the same address and stride (checked, since an
 * emulator that picked one lane's value would hide the bug). Scratch arrays belong to the engine's
 * one instance, so a step allocates nothing.
 */
final class WarpMatrixOps {
    private static final int FULL_WARP = -1;
    private static final int MAX_ELEMENTS = 512;

    enum Action { LOAD, MMA, STORE }

    /** Which operand a fragment holds: A (M x K), B (K x N) or an accumulator C/D (M x N). */
    enum Matrix { A, B, ACCUMULATOR }

    enum Shape {
        M16N16K16(16, 16, 16), M8N32K16(8, 32, 16), M32N8K16(32, 8, 16);

        final int m, n, k;

        Shape(int m, int n, int k) {
            this.m = m;
            this.n = n;
            this.k = k;
        }

        int rows(Matrix x) {
            return x == Matrix.B ? k : m;
        }

        int cols(Matrix x) {
            return x == Matrix.A ? k : n;
        }

        static Shape ofSpelling(String q) {
            for (Shape s : values()) {
                if (q.equals("." + s.name().toLowerCase())) {
                    return s;
                }
            }
            return null;
        }
    }

    /**
     * A decoded wmma instruction. For load and store, {@code matrix}, {@code colMajor} and
     * {@code type} describe the one fragment moved; for mma, {@code colMajor}/{@code bColMajor} are
     * the layouts of A and B, {@code type} is D's element type, and the input and C types follow.
     */
    record Form(Action action, Shape shape, Matrix matrix, boolean colMajor, boolean bColMajor,
                DataType type, DataType aType, DataType bType, DataType cType, boolean satFinite) implements OpForm {

        /** Registers of a fragment of this shape: as many as the ISA lists for it. */
        int registers(Matrix x, DataType t) {
            return elementsPerLane(x, t) * t.bits / 32;
        }

        int elementsPerLane(Matrix x, DataType t) {
            // f16 A and B fragments are 8 registers of two halves for every shape (the matrix repeats).
            return t == DataType.F16 && x != Matrix.ACCUMULATOR ? 16 : shape.rows(x) * shape.cols(x) / 32;
        }
    }

    /**
     * A decoded ldmatrix / stmatrix: how many 8x8 matrices (.x1, .x2, .x4), whether it stores, and
     * .trans. The fragment registers are the destinations of a load and the sources of a store.
     */
    record MoveForm(int matrices, boolean store, boolean transpose) implements OpForm {}

    private final Engine engine;
    private final MmaSync mmaSync;
    /** Raw element bits in logical row-major order (loads and stores). */
    private final long[] elements = new long[MAX_ELEMENTS];
    /** A's values a[i * K + k] and B's transposed, b[j * K + k], as {@link TensorCore#dot} reads them. */
    private final double[] floatA = new double[MAX_ELEMENTS], floatB = new double[MAX_ELEMENTS];
    private final float[] floatC = new float[MAX_ELEMENTS / 2];
    private final long[] intA = new long[MAX_ELEMENTS], intB = new long[MAX_ELEMENTS];
    private final long[] intC = new long[MAX_ELEMENTS / 2];

    WarpMatrixOps(Engine engine) {
        this.engine = engine;
        this.mmaSync = new MmaSync(engine);
    }

    // ---------------------------------------------------------------- decoding

    /**
     * A wmma instruction's form and operands in the order the engine reads them: destinations (the
     * loaded or computed fragment), the address (load and store), and sources: for load the stride;
     * for store the fragment, then the stride; for mma the A, B and C fragments one after another.
     */
    record Decoded(Form form, List<Operand> destinations, Operand address, List<Operand> sources) {}

    static Decoded decode(Instruction i) {
        Form f;
        try {
            f = form(i);
        } catch (IllegalArgumentException e) {
            throw new Decoder.DecodeError(i.pos(), e.getMessage());
        }
        List<Operand> os = i.operands();
        if (os.size() < (f.action() == Action.MMA ? 4 : 2)) {
            throw new Decoder.DecodeError(i.pos(), "wmma operands missing");
        }
        List<Operand> sources = new ArrayList<>();
        return switch (f.action()) {
            case LOAD -> {
                sources.addAll(os.subList(2, os.size()));
                yield new Decoded(f, fragment(os.get(0), f.registers(f.matrix(), f.type())), os.get(1), sources);
            }
            case STORE -> {
                sources.addAll(fragment(os.get(1), f.registers(f.matrix(), f.type())));
                sources.addAll(os.subList(2, os.size()));
                yield new Decoded(f, List.of(), os.get(0), sources);
            }
            default -> {
                sources.addAll(fragment(os.get(1), f.registers(Matrix.A, f.aType())));
                sources.addAll(fragment(os.get(2), f.registers(Matrix.B, f.bType())));
                sources.addAll(fragment(os.get(3), f.registers(Matrix.ACCUMULATOR, f.cType())));
                yield new Decoded(f, fragment(os.get(0), f.registers(Matrix.ACCUMULATOR, f.type())), null, sources);
            }
        };
    }

    /** The registers of a brace-enclosed fragment, as many as the ISA lists for it. */
    private static List<Operand> fragment(Operand o, int registers) {
        List<Operand> regs = o instanceof Operand.Vector v ? v.elements() : List.of(o);
        if (regs.size() != registers) {
            throw new Decoder.DecodeError(o.pos(), "this wmma fragment is " + registers + " registers, not "
                    + regs.size());
        }
        return regs;
    }

    /** The form of a wmma instruction, or an IllegalArgumentException naming what is not supported. */
    private static Form form(Instruction i) {
        Action action = switch (i.opcode()) {
            case WMMA_LOAD -> Action.LOAD;
            case WMMA_STORE -> Action.STORE;
            default -> Action.MMA;
        };
        Shape shape = null;
        Matrix matrix = action == Action.MMA ? null : action == Action.STORE ? Matrix.ACCUMULATOR : null;
        Boolean[] layouts = new Boolean[2];
        int nLayouts = 0;
        for (Qual q : i.qualifiers()) {
            String s = q.text();
            switch (s) {
                case ".a" -> matrix = Matrix.A;
                case ".b" -> matrix = Matrix.B;
                case ".c", ".d" -> matrix = Matrix.ACCUMULATOR;
                case ".row", ".col" -> {
                    if (nLayouts < 2) {
                        layouts[nLayouts++] = s.equals(".col");
                    }
                }
                default -> {
                    Shape sh = Shape.ofSpelling(s);
                    if (sh != null) {
                        shape = sh;
                    }
                }
            }
        }
        if (shape == null) {
            throw new IllegalArgumentException("wmma shape not supported (m16n16k16, m8n32k16 and m32n8k16 are)");
        }
        int needLayouts = action == Action.MMA ? 2 : 1;
        if (nLayouts != needLayouts || (action != Action.MMA && matrix == null)) {
            throw new IllegalArgumentException("wmma needs " + (needLayouts == 2 ? "two layouts" : "a matrix and a layout"));
        }
        List<DataType> ts = i.types();
        boolean sat = i.has(Qualifier.SATFINITE);
        if (action != Action.MMA) {
            DataType t = ts.isEmpty() ? null : ts.get(ts.size() - 1);
            boolean ok = matrix == Matrix.ACCUMULATOR
                    ? t == DataType.F16 || t == DataType.F32 || t == DataType.S32
                    : t == DataType.F16 || t == DataType.S8 || t == DataType.U8;
            if (!ok) {
                throw new IllegalArgumentException("wmma fragment type " + (t == null ? "(none)" : t.spelling)
                        + " not supported for this matrix");
            }
            return new Form(action, shape, matrix, layouts[0], false, t, null, null, null, false);
        }
        if (ts.size() == 2 && isHalfOrSingle(ts.get(0)) && isHalfOrSingle(ts.get(1))) {
            return new Form(action, shape, null, layouts[0], layouts[1], ts.get(0), DataType.F16, DataType.F16,
                    ts.get(1), sat);
        }
        if (ts.size() == 4 && ts.get(0) == DataType.S32 && ts.get(3) == DataType.S32 && isByte(ts.get(1))
                && isByte(ts.get(2))) {
            return new Form(action, shape, null, layouts[0], layouts[1], DataType.S32, ts.get(1), ts.get(2),
                    DataType.S32, sat);
        }
        throw new IllegalArgumentException("wmma.mma types not supported (f16 inputs with f16/f32 accumulators,"
                + " s8/u8 inputs with s32 are)");
    }

    private static boolean isHalfOrSingle(DataType t) {
        return t == DataType.F16 || t == DataType.F32;
    }

    private static boolean isByte(DataType t) {
        return t == DataType.S8 || t == DataType.U8;
    }

    // ---------------------------------------------------------------- execution

    /**
     * A wmma op, mma.sync, ldmatrix, stmatrix or movmatrix by the lanes of exec: warp-collective, so either all 32 lanes
     * execute it, converged, or none does.
     */
    void run(Warp w, Op op, int exec) {
        if (exec != 0 && exec != FULL_WARP) {
            throw engine.stop(ExecStatus.ERROR, "exec.wmma", op, w, Integer.numberOfTrailingZeros(exec), String.format(
                    "'%s' is warp-collective (.sync.aligned): all 32 lanes must execute it converged, but only"
                            + " lanes 0x%08x do", op.mnemonic(), exec));
        }
        if (exec != 0 && op.code == OpCode.MATRIX_MOVE) {
            moveMatrices(w, op);
        } else if (exec != 0 && op.code == OpCode.MATRIX_TRANSPOSE) {
            transposeMatrix(w, op);
        } else if (exec != 0 && op.code == OpCode.MMA_SYNC) {
            mmaSync.run(w, op);
        } else if (exec != 0) {
            execute(w, op);
        }
    }

    /** Runs one wmma op for the whole warp. */
    private void execute(Warp w, Op op) {
        Form f = (Form) op.form;
        switch (f.action()) {
            case LOAD -> load(w, op, f);
            case STORE -> store(w, op, f);
            default -> mma(w, op, f);
        }
    }

    /**
     * ldmatrix / stmatrix .m8n8 .b16 (9.7.14.5.15, 9.7.14.5.16): lanes 8i..8i+7 give the addresses of
     * rows 0..7 of matrix i (8 contiguous b16 each); in the fragment, register i of lane l holds
     * elements (l / 4, 2 (l % 4)) and (l / 4, 2 (l % 4) + 1) of matrix i, the first in the low half,
     * or with .trans those of the transposed matrix. An access is the lane's that gave its row.
     */
    private void moveMatrices(Warp w, Op op) {
        MoveForm form = (MoveForm) op.form;
        boolean store = form.store();
        boolean transpose = form.transpose();
        // (Every address is read before any destination is written: a fragment register may be an address too.)
        long[][] loaded = new long[form.matrices()][32];
        for (int m = 0; m < form.matrices(); m++) {
            for (int r = 0; r < 8; r++) {
                int rowLane = 8 * m + r;
                long row = engine.memory.address(w, op, rowLane);
                for (int c = 0; c < 8; c++) {
                    int fr = transpose ? c : r, fc = transpose ? r : c;
                    int lane = fr * 4 + fc / 2, shift = 16 * (fc % 2);
                    if (store) {
                        engine.memory.store(w, op.mem.space(), row + 2L * c, 2, engine.operands.read(w, op, m, lane) >>> shift & 0xFFFF, rowLane);
                    } else {
                        loaded[m][lane] |= engine.memory.load(w, op.mem.space(), row + 2L * c, 2, rowLane) << shift;
                    }
                }
                if (engine.order != null) {
                    engine.ordering.ordered(w, rowLane, op, op.mem.space(), row, 16, !store, store);
                }
            }
        }
        if (!store) {
            for (int m = 0; m < form.matrices(); m++) {
                for (int l = 0; l < 32; l++) {
                    engine.operands.write(w, op, m, l, loaded[m][l]);
                }
            }
        }
    }

    /**
     * movmatrix.sync.aligned.m8n8.trans.b16 (9.7.14.5.17): source and destination are fragments in
     * ldmatrix's layout, register a of lane l holding elements (l / 4, 2 (l % 4)) and
     * (l / 4, 2 (l % 4) + 1) of the 8x8 matrix, the first in the low half; d holds those of its
     * transpose, so the low half of lane l's d is element (2 (l % 4), l / 4) of the source, which
     * lane 8 (l % 4) + l / 8 holds in half (l / 4) % 2. Every source is read before any destination
     * is written (d may be a).
     */
    void transposeMatrix(Warp w, Op op) {
        long[] a = elements;
        for (int l = 0; l < 32; l++) {
            a[l] = engine.operands.read(w, op, 0, l);
        }
        for (int l = 0; l < 32; l++) {
            int r = l / 4, c = 2 * (l % 4);
            engine.operands.write(w, op, 0, l, half(a, c, r) | half(a, c + 1, r) << 16);
        }
    }

    /** Element (r, c) of an 8x8 .b16 fragment in ldmatrix's layout, from the registers of the 32 lanes. */
    private static long half(long[] regs, int r, int c) {
        return regs[r * 4 + c / 2] >>> (16 * (c % 2)) & 0xFFFF;
    }

    /** The stride operand (in elements), the same in every lane, or the layout's leading dimension. */
    private long stride(Warp w, Op op, int k, int rows, int cols, boolean colMajor) {
        if (op.sources() <= k) {
            return colMajor ? rows : cols;
        }
        long s = sx(engine.operands.read(w, op, k, 0), 32);
        for (int l = 1; l < 32; l++) {
            if (sx(engine.operands.read(w, op, k, l), 32) != s) {
                throw new MemoryFault("lanes of the warp give different strides (lane 0: " + s + ", lane " + l
                        + ": " + sx(engine.operands.read(w, op, k, l), 32) + "), which 9.7.14.4 leaves undefined");
            }
        }
        return s;
    }

    /** The matrix address p, the same in every lane. */
    private long address(Warp w, Op op) {
        long p = engine.memory.address(w, op, 0);
        for (int l = 1; l < 32; l++) {
            long q = engine.memory.address(w, op, l);
            if (q != p) {
                throw new MemoryFault(String.format("lanes of the warp give different matrix addresses (lane 0:"
                        + " 0x%x, lane %d: 0x%x), which 9.7.14.4 leaves undefined", p, l, q));
            }
        }
        return p;
    }

    private static long offset(int r, int c, long stride, boolean colMajor) {
        return colMajor ? c * stride + r : r * stride + c;
    }

    private void load(Warp w, Op op, Form f) {
        Matrix x = f.matrix();
        DataType t = f.type();
        int rows = f.shape().rows(x), cols = f.shape().cols(x);
        int bytes = t.bytes();
        long p = address(w, op);
        long stride = stride(w, op, 0, rows, cols, f.colMajor());
        long[] raw = elements;
        for (int r = 0; r < rows; r++) {
            for (int c = 0; c < cols; c++) {
                raw[r * cols + c] = engine.memory.load(w, op.mem.space(), p + offset(r, c, stride, f.colMajor()) * bytes, bytes, 0);
            }
        }
        ordered(w, op, p, stride, rows, cols, bytes, f.colMajor(), false);
        scatter(w, op, f, x, t, raw, rows * cols);
    }

    private void store(Warp w, Op op, Form f) {
        DataType t = f.type();
        int rows = f.shape().m, cols = f.shape().n;
        int regs = f.registers(Matrix.ACCUMULATOR, t);
        long[] raw = elements;
        gather(w, op, f, Matrix.ACCUMULATOR, t, 0, raw);
        int bytes = t.bytes();
        long p = address(w, op);
        long stride = stride(w, op, regs, rows, cols, f.colMajor());
        for (int r = 0; r < rows; r++) {
            for (int c = 0; c < cols; c++) {
                engine.memory.store(w, op.mem.space(), p + offset(r, c, stride, f.colMajor()) * bytes, bytes, raw[r * cols + c], 0);
            }
        }
        ordered(w, op, p, stride, rows, cols, bytes, f.colMajor(), true);
    }

    /**
     * Hands a wmma load's reads or a store's writes of the matrix at p to the hazard detector as
     * lane 0's (see the class comment): a row at a time for a row-major matrix, a column at a
     * time for a column-major one, stride elements apart.
     */
    private void ordered(Warp w, Op op, long p, long stride, int rows, int cols, int bytes, boolean colMajor,
            boolean store) {
        if (engine.order == null) {
            return;
        }
        int runs = colMajor ? cols : rows, length = colMajor ? rows : cols;
        for (int i = 0; i < runs; i++) {
            engine.ordering.ordered(w, 0, op, op.mem.space(), p + i * stride * bytes, length * bytes, !store, store);
        }
    }

    /** Reads a fragment starting at source operand {@code first} into raw[] in logical order. */
    private void gather(Warp w, Op op, Form f, Matrix x, DataType t, int first, long[] raw) {
        int total = f.shape().rows(x) * f.shape().cols(x);
        int perLane = f.elementsPerLane(x, t);
        int bits = t.bits, perReg = 32 / bits;
        for (int idx = 0; idx < total; idx++) {
            // The first copy of element idx is fragment element idx mod E of lane idx / E.
            int l = idx / perLane, e = idx % perLane;
            long reg = engine.operands.read(w, op, first + e / perReg, l);
            raw[idx] = zx(reg >>> ((e % perReg) * bits), bits);
        }
    }

    /** Writes raw[] (logical order) to the destination registers of every lane. */
    private void scatter(Warp w, Op op, Form f, Matrix x, DataType t, long[] raw, int total) {
        int perLane = f.elementsPerLane(x, t);
        int bits = t.bits, perReg = 32 / bits;
        int regs = perLane / perReg;
        for (int l = 0; l < 32; l++) {
            int base = l * perLane;
            for (int k = 0; k < regs; k++) {
                long v = 0;
                for (int j = 0; j < perReg; j++) {
                    v |= zx(raw[(base + k * perReg + j) % total], bits) << (j * bits);
                }
                engine.operands.write(w, op, k, l, v);
            }
        }
    }

    private void mma(Warp w, Op op, Form f) {
        Shape s = f.shape();
        int m = s.m, n = s.n, kk = s.k;
        int ra = f.registers(Matrix.A, f.aType()), rb = f.registers(Matrix.B, f.bType());
        long[] raw = elements;
        if (f.type() == DataType.S32) {
            gather(w, op, f, Matrix.A, f.aType(), 0, raw);
            widen(raw, intA, m * kk, f.aType());
            gather(w, op, f, Matrix.B, f.bType(), ra, raw);
            widen(raw, intB, kk * n, f.bType());
            gather(w, op, f, Matrix.ACCUMULATOR, DataType.S32, ra + rb, raw);
            widen(raw, intC, m * n, DataType.S32);
            for (int i = 0; i < m; i++) {
                for (int j = 0; j < n; j++) {
                    long acc = intC[i * n + j];
                    for (int k = 0; k < kk; k++) {
                        acc += intA[i * kk + k] * intB[k * n + j];
                    }
                    if (f.satFinite()) {
                        acc = Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, acc));
                    }
                    raw[i * n + j] = zx(acc, 32);
                }
            }
        } else {
            gather(w, op, f, Matrix.A, DataType.F16, 0, raw);
            for (int e = 0; e < m * kk; e++) {
                floatA[e] = TensorCore.input(raw[e], DataType.F16);
            }
            gather(w, op, f, Matrix.B, DataType.F16, ra, raw);
            for (int k = 0; k < kk; k++) {
                for (int j = 0; j < n; j++) {
                    floatB[j * kk + k] = TensorCore.input(raw[k * n + j], DataType.F16);
                }
            }
            DataType ct = f.cType();
            gather(w, op, f, Matrix.ACCUMULATOR, ct, ra + rb, raw);
            for (int e = 0; e < m * n; e++) {
                floatC[e] = ct == DataType.F16 ? FloatOps.halfToFloat((int) raw[e]) : Float.intBitsToFloat((int) raw[e]);
            }
            boolean half = f.type() == DataType.F16;
            for (int i = 0; i < m; i++) {
                for (int j = 0; j < n; j++) {
                    float acc = TensorCore.dot(floatC[i * n + j], floatA, i * kk, floatB, j * kk, kk, 1, DataType.F16,
                            DataType.F16, !half);
                    raw[i * n + j] = half ? halfResult(acc, f.satFinite()) : singleResult(acc, f.satFinite());
                }
            }
        }
        scatter(w, op, f, Matrix.ACCUMULATOR, f.type(), raw, m * n);
    }

    private static void widen(long[] raw, long[] out, int count, DataType t) {
        for (int e = 0; e < count; e++) {
            out[e] = t.isSigned() ? sx(raw[e], t.bits) : raw[e];
        }
    }

    private static long halfResult(float acc, boolean satFinite) {
        int h = FloatOps.floatToHalf(acc);
        if (satFinite && (h & 0x7fff) == 0x7c00) {
            h = (h & 0x8000) | 0x7bff;
        }
        return h;
    }

    private static long singleResult(float acc, boolean satFinite) {
        if (satFinite && Float.isInfinite(acc)) {
            acc = Math.copySign(Float.MAX_VALUE, acc);
        }
        return Float.floatToRawIntBits(acc) & 0xffffffffL;
    }
}
