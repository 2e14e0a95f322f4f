package io.ptxrun.exec.copy;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The element arithmetic of {@code cp.reduce.async.bulk} and {@code cp.reduce.async.bulk.tensor}
 * (PTX ISA 9.7.9.25.4.2, 9.7.9.25.5.3): {@code dst[i] = dst[i] redOp src[i]}, elements
 * little-endian. Which pairs are legal is {@link ReductionRules}' business; this class defines
 * the arithmetic of every pair any table lists, following the H100 where it and the spec differ:
 *
 * <ul>
 *   <li>{@code inc}: {@code old >= src ? 0 : old + 1}; {@code dec}:
 *       {@code (old == 0 || old > src) ? src : old - 1} (unsigned, as {@code atom}).
 *   <li>{@code add.f32}: round to nearest even, <em>subnormals kept</em>. The spec says the current
 *       implementation flushes subnormal inputs and results; the H100 does not (1e-40 + 0 stays
 *       0x000116c2). NaN results are 0x7fffffff.
 *   <li>{@code add.f64}: round to nearest even; NaN results are 0xfff8000000000000 (recorded for
 *       inf + -inf).
 *   <li>{@code f16} / {@code bf16} {@code add.noftz}: one rounding to nearest even, subnormals
 *       kept, NaN results 0x7fff. {@code min} / {@code max}: a single NaN operand yields the other
 *       operand, two NaNs yield 0x7fff, and -0 orders below +0.
 * </ul>
 */
public final class BulkReduction {

    static final int NAN_F32 = 0x7fffffff;
    static final long NAN_F64 = 0xfff8000000000000L;

    private static final VarHandle SHORT =
            MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT =
            MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONG =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private BulkReduction() {}

    /**
     * Reduces {@code bytes} bytes of {@code src} (from {@code srcOff}) into {@code dst} (from
     * {@code dstOff}), element by element in address order. {@code bytes} must be a multiple of
     * the element size (the instruction asks for a multiple of 16, which every size divides).
     *
     * @throws IllegalArgumentException for a ragged size or a pair no table defines
     */
    public static void apply(
            ReductionOp op, ReductionType type, byte[] dst, int dstOff, byte[] src, int srcOff, int bytes) {
        int size = type.byteSize();
        if (bytes % size != 0) {
            throw new IllegalArgumentException(bytes + " bytes is not a whole number of ." + type + " elements");
        }
        for (int at = 0; at < bytes; at += size) {
            long old = read(dst, dstOff + at, size);
            long value = read(src, srcOff + at, size);
            write(dst, dstOff + at, size, combine(op, type, old, value));
        }
    }

    /** One element: the new destination bits from the old ones and the source's (both zero-extended). */
    public static long combine(ReductionOp op, ReductionType type, long old, long value) {
        return switch (type.kind()) {
            case BITS, UNSIGNED, SIGNED -> integer(op, type, old, value);
            case FLOAT -> type == ReductionType.F32 ? addF32(op, old, value) : addF64(op, old, value);
            case HALF, BFLOAT -> half(op, type, (int) old & 0xffff, (int) value & 0xffff);
        };
    }

    private static long integer(ReductionOp op, ReductionType type, long old, long value) {
        boolean wide = type.byteSize() == 8;
        long mask = wide ? -1L : 0xffffffffL;
        boolean signed = type.kind() == ReductionType.Kind.SIGNED;
        // Compare in 64 bits: sign-extend the signed 32-bit kinds, zero-extension suffices otherwise.
        long a = signed && !wide ? (int) old : old;
        long b = signed && !wide ? (int) value : value;
        long result =
                switch (op) {
                    case ADD -> old + value;
                    case AND -> old & value;
                    case OR -> old | value;
                    case XOR -> old ^ value;
                    case MIN -> (signed ? a <= b : Long.compareUnsigned(a, b) <= 0) ? old : value;
                    case MAX -> (signed ? a >= b : Long.compareUnsigned(a, b) >= 0) ? old : value;
                    case INC -> Long.compareUnsigned(old, value) >= 0 ? 0 : old + 1;
                    case DEC -> (old == 0 || Long.compareUnsigned(old, value) > 0) ? value : old - 1;
                };
        return result & mask;
    }

    private static long addF32(ReductionOp op, long old, long value) {
        requireAdd(op, ReductionType.F32);
        float sum = Float.intBitsToFloat((int) old) + Float.intBitsToFloat((int) value);
        return Float.isNaN(sum) ? NAN_F32 : Integer.toUnsignedLong(Float.floatToRawIntBits(sum));
    }

    private static long addF64(ReductionOp op, long old, long value) {
        requireAdd(op, ReductionType.F64);
        double sum = Double.longBitsToDouble(old) + Double.longBitsToDouble(value);
        return Double.isNaN(sum) ? NAN_F64 : Double.doubleToRawLongBits(sum);
    }

    private static void requireAdd(ReductionOp op, ReductionType type) {
        if (op != ReductionOp.ADD) {
            throw new IllegalArgumentException("." + op + " is not defined on ." + type);
        }
    }

    private static long half(ReductionOp op, ReductionType type, int old, int value) {
        boolean oldNaN = HalfFloats.isNaN(old, type);
        boolean valueNaN = HalfFloats.isNaN(value, type);
        switch (op) {
            case ADD -> {
                if (oldNaN || valueNaN) {
                    return HalfFloats.CANONICAL_NAN;
                }
                // Both operands are exact in double and so is their sum for f16 (at most 40
                // significant bits); for bf16 a rounded double sum still rounds correctly to 8 bits.
                double sum = HalfFloats.toDouble(old, type) + HalfFloats.toDouble(value, type);
                return Double.isNaN(sum) ? HalfFloats.CANONICAL_NAN : HalfFloats.fromDouble(sum, type);
            }
            case MIN, MAX -> {
                if (oldNaN && valueNaN) {
                    return HalfFloats.CANONICAL_NAN;
                }
                if (oldNaN || valueNaN) {
                    return oldNaN ? value : old;
                }
                double a = HalfFloats.toDouble(old, type);
                double b = HalfFloats.toDouble(value, type);
                // Double.compare orders -0 below +0, as the hardware does.
                int order = Double.compare(a, b);
                boolean keepOld = op == ReductionOp.MIN ? order <= 0 : order >= 0;
                return keepOld ? old : value;
            }
            default -> throw new IllegalArgumentException("." + op + " is not defined on ." + type);
        }
    }

    /** The little-endian element of {@code size} bytes at {@code offset}, zero-extended. */
    static long read(byte[] data, int offset, int size) {
        return switch (size) {
            case 1 -> data[offset] & 0xffL;
            case 2 -> (short) SHORT.get(data, offset) & 0xffffL;
            case 4 -> (int) INT.get(data, offset) & 0xffffffffL;
            default -> (long) LONG.get(data, offset);
        };
    }

    static void write(byte[] data, int offset, int size, long bits) {
        switch (size) {
            case 1 -> data[offset] = (byte) bits;
            case 2 -> SHORT.set(data, offset, (short) bits);
            case 4 -> INT.set(data, offset, (int) bits);
            default -> LONG.set(data, offset, bits);
        }
    }
}
