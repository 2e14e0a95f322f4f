package io.ptxrun.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ShortestDecimalTest {

    @ParameterizedTest
    @CsvSource({
        "2.0E-3, 0.002",
        "1.0E23, 1.0E23",
        "2.0E23, 2.0E23",
        "4.9E-324, 5.0E-324",
        "9.9E-324, 1.0E-323",
        "1.5E-323, 1.5E-323",
        "1.7976931348623157E308, 1.7976931348623157E308",
        "0.1, 0.1",
        "1.0E7, 1.0E7",
        "1.0E-5, 1.0E-5",
        "100.0, 100.0",
        "-0.0, -0.0",
        "0.0, 0.0",
        "-2.5, -2.5",
        "1.2345678901234568E17, 1.2345678901234568E17",
    })
    void doubles(double value, String expected) {
        assertEquals(expected, ShortestDecimal.of(value));
    }

    @ParameterizedTest
    @CsvSource({
        "1.4E-45, 1.0E-45",
        "2.8E-45, 3.0E-45",
        "9.8E-45, 1.0E-44",
        "1.1E-44, 1.1E-44",
        "3.4028235E38, 3.4028235E38",
        "0.1, 0.1",
        "-0.0, -0.0",
        "1.0E10, 1.0E10",
        "8.41E21, 8.41E21",
        "2.82879384806159E17, 2.8287938E17",
        "1.17549435E-38, 1.1754944E-38",
        "16777216, 1.6777216E7",
    })
    void floats(float value, String expected) {
        assertEquals(expected, ShortestDecimal.of(value));
    }

    @Test
    void nonFiniteValuesUseTheHarnessSpelling() {
        assertEquals("NaN", ShortestDecimal.of(Float.NaN));
        assertEquals("NaN", ShortestDecimal.of(Double.NaN));
        assertEquals("Infinity", ShortestDecimal.of(Float.POSITIVE_INFINITY));
        assertEquals("-Infinity", ShortestDecimal.of(Double.NEGATIVE_INFINITY));
    }

    /** Python's repr and numpy's float32 str (as the harness prints them) give the same decimal. */
    @Test
    void sameDecimalsAsPythonAndNumpy() {
        JsonNode cases = TestData.resource("shortest-floats.json");
        int checked = 0;
        for (JsonNode c : cases) {
            boolean isFloat = c.get("type").asText().equals("f32");
            long bits = Long.parseUnsignedLong(c.get("bits").asText(), 16);
            String ours =
                    isFloat
                            ? ShortestDecimal.of(Float.intBitsToFloat((int) bits))
                            : ShortestDecimal.of(Double.longBitsToDouble(bits));
            String python = c.get("text").asText();
            assertEquals(
                    0,
                    new BigDecimal(ours).compareTo(new BigDecimal(python)),
                    c.get("type").asText() + " bits " + c.get("bits").asText() + ": ours " + ours + ", Python " + python);
            checked++;
        }
        assertEquals(cases.size(), checked);
    }

    @Property(tries = 3000)
    void floatsReadBackAndAreShortest(@ForAll int bits) {
        float value = Float.intBitsToFloat(bits);
        if (!Float.isFinite(value)) {
            return;
        }
        String text = ShortestDecimal.of(value);
        assertEquals(bits, Float.floatToRawIntBits(Float.parseFloat(text)), text);
        assertNoShorterDecimal(text, new BigDecimal(value), true, bits);
    }

    @Property(tries = 3000)
    void doublesReadBackAndAreShortest(@ForAll long bits) {
        double value = Double.longBitsToDouble(bits);
        if (!Double.isFinite(value)) {
            return;
        }
        String text = ShortestDecimal.of(value);
        assertEquals(bits, Double.doubleToRawLongBits(Double.parseDouble(text)), text);
        assertNoShorterDecimal(text, new BigDecimal(value), false, bits);
    }

    /** No decimal with one digit fewer reads back as the same value. */
    private static void assertNoShorterDecimal(String text, BigDecimal exact, boolean isFloat, long bits) {
        int digits = new BigDecimal(text).stripTrailingZeros().precision();
        if (digits == 1 || exact.signum() == 0) {
            return;
        }
        for (RoundingMode mode : new RoundingMode[] {RoundingMode.FLOOR, RoundingMode.CEILING}) {
            String shorter = exact.round(new MathContext(digits - 1, mode)).toString();
            boolean readsBack =
                    isFloat
                            ? Float.floatToRawIntBits(Float.parseFloat(shorter)) == (int) bits
                            : Double.doubleToRawLongBits(Double.parseDouble(shorter)) == bits;
            assertFalse(readsBack, text + " is not shortest: " + shorter + " reads back too");
        }
    }
}
