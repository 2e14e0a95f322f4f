package io.ptxrun.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ptxrun.ast.Qualifier;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link Comparisons#compareInt32}, the comparison compiled lane loops make of 32-bit registers
 * held as ints, against {@link Comparisons#compareInt} at 32 bits, the interpreter's: every
 * integer comparison, signed and unsigned, on values around zero and the sign bit and on random
 * ones, the registers' upper halves holding garbage that a 32-bit comparison ignores.
 */
class ComparisonsTest {
    private static final Qualifier[] INTEGER = {Qualifier.EQ, Qualifier.NE, Qualifier.LT, Qualifier.LE,
        Qualifier.GT, Qualifier.GE, Qualifier.LO, Qualifier.LS, Qualifier.HI, Qualifier.HS};
    private static final int[] EDGES = {0, 1, -1, 2, -2, Integer.MAX_VALUE, Integer.MIN_VALUE,
        Integer.MAX_VALUE - 1, Integer.MIN_VALUE + 1, 0x7fff, 0x8000, 0xffff};

    @Test
    void compareInt32IsCompareIntOf32Bits() {
        SplittableRandom random = new SplittableRandom(13);
        int[] values = new int[EDGES.length + 200];
        System.arraycopy(EDGES, 0, values, 0, EDGES.length);
        for (int k = EDGES.length; k < values.length; k++) {
            values[k] = random.nextInt();
        }
        for (Qualifier q : INTEGER) {
            for (boolean signed : new boolean[] {true, false}) {
                for (int a : values) {
                    for (int b : values) {
                        long ra = (long) random.nextInt() << 32 | a & 0xffffffffL;
                        long rb = (long) random.nextInt() << 32 | b & 0xffffffffL;
                        assertEquals(Comparisons.compareInt(q.ordinal(), signed, 32, ra, rb),
                                Comparisons.compareInt32(q.ordinal(), signed, a, b),
                                q + (signed ? " signed " : " unsigned ") + a + ", " + b);
                    }
                }
            }
        }
    }
}
