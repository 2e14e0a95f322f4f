package io.ptxrun.launch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ElementTypeTest {

    @Test
    void sizesSignednessAndFloatness() {
        assertEquals(1, ElementType.S8.byteSize());
        assertEquals(2, ElementType.U16.byteSize());
        assertEquals(4, ElementType.F32.byteSize());
        assertEquals(64, ElementType.B64.bits());
        assertTrue(ElementType.S32.isSigned());
        assertFalse(ElementType.U32.isSigned());
        assertFalse(ElementType.B32.isSigned());
        assertTrue(ElementType.F64.isFloat());
        assertFalse(ElementType.S64.isFloat());
        assertTrue(ElementType.U8.isInteger());
    }

    @Test
    void bitTypesAreAliasesOfTheUnsignedOnes() {
        assertEquals(ElementType.U8, ElementType.B8.canonical());
        assertEquals(ElementType.U16, ElementType.B16.canonical());
        assertEquals(ElementType.U32, ElementType.B32.canonical());
        assertEquals(ElementType.U64, ElementType.B64.canonical());
        assertEquals(ElementType.S32, ElementType.S32.canonical());
        assertEquals("b32", ElementType.B32.typeName());
        assertEquals("4294967295", ElementType.B32.format(0xFFFFFFFFL));
    }

    @Test
    void parsesEveryName() {
        for (ElementType type : ElementType.values()) {
            assertEquals(type, ElementType.parse(type.typeName()));
            assertEquals(type.typeName(), type.toString());
        }
    }

    @Test
    void unknownNameListsTheValidOnesAndSuggests() {
        LaunchException e = assertThrows(LaunchException.class, () -> ElementType.parse("i32"));
        assertEquals(
                "unknown element type 'i32' (expected one of u8, s8, u16, s16, u32, s32, u64, s64, f32, f64,"
                        + " b8, b16, b32, b64) — did you mean 'u32'?",
                e.getMessage());
        assertThrows(LaunchException.class, () -> ElementType.parse("S32"));
        assertThrows(LaunchException.class, () -> ElementType.parse("float"));
    }

    @Test
    void loadAndStoreAreLittleEndian() {
        byte[] data = new byte[8];
        ElementType.U16.store(data, 1, 0xBEEF);
        assertArrayEquals(new byte[] {0, 0, (byte) 0xEF, (byte) 0xBE, 0, 0, 0, 0}, data);
        assertEquals(0xBEEF, ElementType.U16.load(data, 1));
        ElementType.S64.store(data, 0, -2);
        assertEquals(-2L, ElementType.S64.load(data, 0));
        ElementType.S8.store(data, 3, -1);
        assertEquals(0xFF, ElementType.S8.load(data, 3), "loads zero-extend");
        assertEquals(-1, ElementType.S8.signExtend(0xFF));
    }

    @Test
    void formatsAsResultsPrintElements() {
        assertEquals("-1", ElementType.S32.format(0xFFFFFFFFL));
        assertEquals("4294967295", ElementType.U32.format(0xFFFFFFFFL));
        assertEquals("18446744073709551615", ElementType.U64.format(-1L));
        assertEquals("-9223372036854775808", ElementType.S64.format(Long.MIN_VALUE));
        assertEquals("0.1", ElementType.F32.format(Float.floatToRawIntBits(0.1f)));
        assertEquals("0.1", ElementType.F64.format(Double.doubleToRawLongBits(0.1)));
        assertEquals("NaN", ElementType.F32.format(0x7FC00000L));
        assertEquals("-Infinity", ElementType.F64.format(Double.doubleToRawLongBits(Double.NEGATIVE_INFINITY)));
    }
}
