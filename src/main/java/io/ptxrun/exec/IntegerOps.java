package io.ptxrun.exec;

import io.ptxrun.ast.DataType;

import static io.ptxrun.exec.Bits.sx;
import static io.ptxrun.exec.Bits.zx;

/**
 * Integer arithmetic, logic, shifts and bit-field operations, one lane at a time. Pure functions
 * of the source values, apart from the carry flag (CC.CF) that add.cc/addc and friends keep per
 * lane in the warp.
 */
final class IntegerOps {
    private IntegerOps() {}

    /** shl: shift counts of the type's width or more give 0. */
    static long shl(long a, long count, int bits) {
        long n = count & 0xffffffffL;
        return n >= bits ? 0 : a << n;
    }

    /** mul.wide: the operands extended from bits by the type's sign, multiplied at twice the width. */
    static long mulWide(long a, long b, boolean signed, int bits) {
        return signed ? sx(a, bits) * sx(b, bits) : zx(a, bits) * zx(b, bits);
    }

    /** shr of a bits-bit value (before the result is cut to the type's width): counts beyond it give 0 or the sign. */
    static long shr(long a, long count, boolean signed, int bits) {
        long n = zx(count, 32);
        return signed ? sx(a, bits) >> Math.min(n, 63) : n >= bits ? 0 : zx(a, bits) >>> n;
    }

    /**
     * One lane of an integer operation on its source values a..d (unused ones are 0); returns the
     * destination value, zero-extended to the result width. Carry-flag forms read and set the
     * lane's CC.CF in the warp.
     */
    static long apply(Op op, Warp w, int l, long a, long b, long c3, long d4) {
        DataType t = op.type;
        int bits = t.bits;
        if (t == DataType.S16X2 || t == DataType.U16X2) {
            return packedPair(op, a, b);
        }
        boolean signed = t.isSigned();
        long r;
        switch (op.code) {
            case ADD -> {
                if (op.mod.sat()) {
                    r = clampS32(sx(a, 32) + sx(b, 32));
                } else {
                    r = a + b;
                    if (op.mod.carry()) {
                        setCarry(w, l, carryOut(a, b, 0, bits));
                    }
                }
            }
            case DOT -> r = dot((DotProduct) op.form, a, b, c3);
            case SAD -> {
                long x = ext(a, t), y = ext(b, t);
                boolean less = signed ? x < y : Long.compareUnsigned(x, y) < 0;
                long diff = less ? y - x : x - y;
                r = c3 + diff;
            }
            case MUL24, MAD24 -> {
                long x = signed ? sx(a, 24) : zx(a, 24), y = signed ? sx(b, 24) : zx(b, 24);
                long p = x * y;
                r = op.productHalf() == ProductHalf.HI ? p >> 16 : p;
                if (op.code == OpCode.MAD24) {
                    r += c3;
                }
            }
            case BMSK -> {
                long a1 = a & 0x1f, b1 = b & 0x1f;
                long sum = a1 + b1;
                long mask0 = (~0L << a1) & 0xffffffffL;
                long mask1 = (~0L << sum) & 0xffffffffL;
                boolean overflow = sum >= 32;
                if (op.clamps()) {
                    if (zx(a, 32) >= 32) {
                        overflow = true;
                        mask0 = 0;
                    }
                    if (zx(b, 32) >= 32) {
                        overflow = true;
                    }
                }
                if (overflow) {
                    mask1 = 0;
                } else if (b1 == 0) {
                    mask1 = 0xffffffffL;
                }
                r = mask0 & ~mask1;
            }
            case FNS -> {
                int mask = (int) a;
                int base = (int) b;
                int offset = (int) c3;
                r = 0xffffffffL;
                if (offset == 0) {
                    if (base >= 0 && base < 32 && ((mask >>> base) & 1) != 0) {
                        r = base;
                    }
                } else {
                    int count = Math.abs(offset) - 1;
                    int inc = offset > 0 ? 1 : -1;
                    for (int pos = base; pos >= 0 && pos < 32; pos += inc) {
                        if (((mask >>> pos) & 1) != 0) {
                            if (count == 0) {
                                r = pos;
                                break;
                            }
                            count--;
                        }
                    }
                }
            }
            case MADC -> {
                long cin = (w.carry >>> l) & 1;
                long p = op.productHalf() == ProductHalf.HI ? mul(ProductHalf.HI, a, b, t) : a * b;
                long c = c3;
                r = p + c + cin;
                if (op.mod.carry()) {
                    long pz = zx(p, bits);
                    setCarry(w, l, carryOut(pz, c, cin, bits));
                }
            }
            case ADDC -> {
                long cin = (w.carry >>> l) & 1;
                r = a + b + cin;
                if (op.mod.carry()) {
                    setCarry(w, l, carryOut(a, b, cin, bits));
                }
            }
            case SUB -> {
                if (op.mod.sat()) {
                    r = clampS32(sx(a, 32) - sx(b, 32));
                } else {
                    r = a - b;
                    if (op.mod.carry()) {
                        setCarry(w, l, Long.compareUnsigned(zx(a, bits), zx(b, bits)) < 0);
                    }
                }
            }
            case SUBC -> {
                long cin = (w.carry >>> l) & 1;
                r = a - b - cin;
                if (op.mod.carry()) {
                    long za = zx(a, bits), zb = zx(b, bits);
                    boolean borrow = Long.compareUnsigned(za, zb) < 0 || (cin == 1 && za == zb);
                    setCarry(w, l, borrow);
                }
            }
            case MUL -> {
                r = mul(op.productHalf(), a, b, t);
                if (op.productHalf() == ProductHalf.WIDE) {
                    bits *= 2;
                }
            }
            case MAD -> {
                long c = c3;
                if (op.productHalf() == ProductHalf.LO && op.mod.carry()) {
                    long p = a * b;
                    r = p + c;
                    setCarry(w, l, carryOut(p, c, 0, bits));
                } else {
                    // mad.hi.sat.s32 included: on H100 it wraps exactly like mad.hi.s32.
                    r = mul(op.productHalf(), a, b, t) + c;
                }
                if (op.productHalf() == ProductHalf.WIDE) {
                    bits *= 2;
                }
            }
            case DIV -> {
                long x = ext(a, t), y = ext(b, t);
                if (y == 0) {
                    r = -1; // what H100 gives: all ones
                } else {
                    r = signed ? x / y : Long.divideUnsigned(x, y);
                }
            }
            case REM -> {
                long x = ext(a, t), y = ext(b, t);
                if (y == 0) {
                    r = -1; // what H100 gives: all ones, like x/0
                } else {
                    r = signed ? x % y : Long.remainderUnsigned(x, y);
                }
            }
            case MIN, MAX -> {
                long x = ext(a, t), y = ext(b, t);
                int c = signed ? Long.compare(x, y) : Long.compareUnsigned(x, y);
                r = (op.code == OpCode.MIN) == (c <= 0) ? x : y;
                if (op.mod.relu() && r < 0) {
                    r = 0;
                }
            }
            case ABS -> r = Math.abs(sx(a, bits));
            case NEG -> r = -a;
            case AND -> r = a & b;
            case OR -> r = a | b;
            case XOR -> r = a ^ b;
            case NOT -> r = t == DataType.PRED ? a ^ 1 : ~a;
            case CNOT -> r = zx(a, bits) == 0 ? 1 : 0;
            case SHL -> {
                long n = zx(b, 32);
                r = n >= bits ? 0 : a << n;
            }
            case SHR -> r = shr(a, b, signed, bits);
            case POPC -> {
                r = Long.bitCount(zx(a, bits));
                bits = 32;
            }
            case CLZ -> {
                r = bits == 64 ? Long.numberOfLeadingZeros(a) : Integer.numberOfLeadingZeros((int) a);
                bits = 32;
            }
            case BREV -> r = bits == 64 ? Long.reverse(a) : Integer.reverse((int) a);
            case BFE -> {
                // The 32-bit form reduces position and length to 8 bits; the 64-bit one (on H100) does not.
                long pos = bits == 64 ? zx(b, 32) : b & 0xff;
                long len = bits == 64 ? zx(c3, 32) : c3 & 0xff;
                long x = zx(a, bits);
                int msb = bits - 1;
                boolean sbit;
                if (!signed || len == 0) {
                    sbit = false;
                } else {
                    long sb = Math.min(pos + len - 1, msb);
                    sbit = ((x >>> sb) & 1) != 0;
                }
                r = 0;
                for (int i = 0; i <= msb; i++) {
                    boolean bit = (i < len && pos + i <= msb) ? ((x >>> (pos + i)) & 1) != 0 : sbit;
                    if (bit) {
                        r |= 1L << i;
                    }
                }
            }
            case BFI -> {
                long c = c3;
                long pos = bits == 64 ? zx(c, 32) : c & 0xff;
                long len = bits == 64 ? zx(d4, 32) : d4 & 0xff;
                r = b;
                for (int i = 0; i < len && pos + i < bits; i++) {
                    long bit = (a >>> i) & 1;
                    r = (r & ~(1L << (pos + i))) | (bit << (pos + i));
                }
            }
            case BFIND -> {
                long x = signed ? sx(a, bits) : zx(a, bits);
                if (signed && x < 0) {
                    x = ~x;
                }
                x = zx(x, bits);
                if (x == 0) {
                    r = 0xffffffffL;
                } else {
                    int p = 63 - Long.numberOfLeadingZeros(x);
                    r = op.shiftAmount() ? (bits - 1 - p) : p;
                }
                bits = 32;
            }
            case PRMT -> r = prmt(a, b, c3, op.prmtMode());
            case LOP3 -> {
                long c = c3;
                int lut = (int) d4;
                r = 0;
                for (int i = 0; i < 8; i++) {
                    if (((lut >>> i) & 1) != 0) {
                        r |= ((i & 4) != 0 ? a : ~a) & ((i & 2) != 0 ? b : ~b) & ((i & 1) != 0 ? c : ~c);
                    }
                }
            }
            case SHF -> {
                long c = zx(c3, 32);
                long n = op.clamps() ? Math.min(c, 32) : c & 31;
                long v = (zx(b, 32) << 32) | zx(a, 32);
                r = op.shiftsLeft() ? (v << n) >>> 32 : v >>> n;
            }
            default -> throw Engine.Stop.unsupported(op, " for type " + t);
        }
        return zx(r, bits == 1 ? 1 : Math.min(bits, 64));
    }

    /** shf's direction: .l shifts the funnel left, .r right. */
    enum FunnelDirection implements OpForm {
        LEFT, RIGHT
    }

    /** prmt's mode: the default byte selection, or one of the special modes (.f4e, .b4e, .rc8, .ecl, .ecr, .rc16). */
    enum PermuteMode implements OpForm {
        DEFAULT, F4E, B4E, RC8, ECL, ECR, RC16;

        /** The mode a qualifier names (".f4e" ...), the default for any other text. */
        static PermuteMode of(String qualifier) {
            for (PermuteMode m : values()) {
                if (m != DEFAULT && qualifier.equals("." + m.name().toLowerCase())) {
                    return m;
                }
            }
            return DEFAULT;
        }
    }

    static long prmt(long a, long b, long c, PermuteMode mode) {
        long src = (zx(b, 32) << 32) | zx(a, 32);
        int sel = (int) c;
        long r = 0;
        if (mode == PermuteMode.DEFAULT) {
            for (int i = 0; i < 4; i++) {
                int s = (sel >>> (4 * i)) & 0xf;
                long byt = (src >>> ((s & 7) * 8)) & 0xff;
                if ((s & 8) != 0) {
                    byt = (byt & 0x80) != 0 ? 0xff : 0;
                }
                r |= byt << (8 * i);
            }
            return r;
        }
        // Special modes use only selector bits 1:0 (PTX ISA, prmt).
        int n = sel & 3;
        int[] idx = new int[4];
        for (int i = 0; i < 4; i++) {
            idx[i] = switch (mode) {
                case F4E -> (n + i) & 7;
                case B4E -> (n - i) & 7;
                case RC8 -> n;
                case ECL -> Math.max(i, n);
                case ECR -> Math.min(i, n);
                default -> 2 * (n & 1) + (i & 1); // rc16
            };
        }
        for (int i = 0; i < 4; i++) {
            r |= ((src >>> (idx[i] * 8)) & 0xff) << (8 * i);
        }
        return r;
    }

    static long clampS32(long v) {
        return Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, v));
    }

    static boolean carryOut(long a, long b, long cin, int bits) {
        if (bits >= 64) {
            long s = a + b;
            boolean c1 = Long.compareUnsigned(s, a) < 0;
            long s2 = s + cin;
            return c1 || Long.compareUnsigned(s2, s) < 0;
        }
        return ((zx(a, bits) + zx(b, bits) + cin) >>> bits) != 0;
    }

    static void setCarry(Warp w, int l, boolean c) {
        w.carry = c ? w.carry | (1 << l) : w.carry & ~(1 << l);
    }

    /**
     * Which half of an integer product mul and mad keep: the low bits (.lo), the high ones (.hi)
     * or the whole product at twice the width (.wide); mul24, mad24 and madc keep .lo or .hi.
     */
    /**
     * dp4a (four of a's bytes) or dp2a (two of a's 16-bit halves, with b's bytes from
     * {@code firstByte}, 0 for .lo and 2 for .hi), each value extended by its operand's signedness.
     */
    record DotProduct(int terms, boolean aSigned, boolean bSigned, int firstByte) implements OpForm {
    }

    /** c plus the dot product of a's and b's packed integers, as dp4a and dp2a define it (wrapping at 32 bits). */
    static long dot(DotProduct f, long a, long b, long c) {
        int aBits = f.terms() == 4 ? 8 : 16;
        long sum = c;
        for (int k = 0; k < f.terms(); k++) {
            long x = a >>> (k * aBits), y = b >>> ((f.firstByte() + k) * 8);
            sum += (f.aSigned() ? sx(x, aBits) : zx(x, aBits)) * (f.bSigned() ? sx(y, 8) : zx(y, 8));
        }
        return zx(sum, 32);
    }

    enum ProductHalf implements OpForm {
        LO, HI, WIDE
    }

    /** The integer product of a and b of type t, the half given. */
    static long mul(ProductHalf half, long a, long b, DataType t) {
        int bits = t.bits;
        boolean signed = t.isSigned();
        long x = ext(a, t), y = ext(b, t);
        switch (half) {
            case HI: {
                if (bits < 64) {
                    return (x * y) >> bits;
                }
                long hi = Math.multiplyHigh(x, y);
                if (!signed) {
                    hi += ((x >> 63) & y) + ((y >> 63) & x);
                }
                return hi;
            }
            case WIDE:
                return mulWide(a, b, signed, bits);
            default:
                return a * b;
        }
    }


    /**
     * The packed .s16x2/.u16x2 forms (add, sub, min, max, with .relu on signed min/max): each
     * 16-bit half computed on its own, wrapping to 16 bits.
     */
    private static long packedPair(Op op, long a, long b) {
        boolean signed = op.type == DataType.S16X2;
        long out = 0;
        for (int half = 0; half < 2; half++) {
            int shift = 16 * half;
            long x = (a >>> shift) & 0xffff, y = (b >>> shift) & 0xffff;
            if (signed) {
                x = sx(x, 16);
                y = sx(y, 16);
            }
            long r = switch (op.code) {
                case ADD -> x + y;
                case SUB -> x - y;
                case MIN -> Math.min(x, y);
                case MAX -> Math.max(x, y);
                default -> throw Engine.Stop.unsupported(op, " for type " + op.type);
            };
            if (op.mod.relu() && r < 0) {
                r = 0;
            }
            out |= (r & 0xffff) << shift;
        }
        return out;
    }

    static long ext(long v, DataType t) {
        return t.isSigned() ? sx(v, t.bits) : zx(v, t.bits);
    }
}
