package io.ptxrun.ast;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import org.junit.jupiter.api.Test;

/** SourcePos writes out equals and hashCode: they must be the ones a record generates. */
class SourcePosTest {
    /** The same components in a record whose methods are generated. */
    private record Generated(String file, int line, int column) {}

    @Test
    void equalsAndHashCodeAreThoseOfARecord() {
        String[] files = {"a.ptx", "testdata/nvcc/reduce.sm_90.ptx", null};
        int[] numbers = {0, 1, 2, 447, -1, Integer.MAX_VALUE};
        for (String file : files) {
            for (int line : numbers) {
                for (int column : numbers) {
                    SourcePos p = new SourcePos(file, line, column);
                    assertEquals(new Generated(file, line, column).hashCode(), p.hashCode());
                    assertEquals(p, new SourcePos(file == null ? null : new String(file), line, column));
                    assertNotEquals(p, new SourcePos(file, line + 1, column));
                    assertNotEquals(p, new SourcePos(file, line, column + 1));
                    assertNotEquals(p, new SourcePos("other.ptx", line, column));
                }
            }
        }
        assertNotEquals(new SourcePos("a.ptx", 1, 1), "a.ptx:1:1");
    }
}
