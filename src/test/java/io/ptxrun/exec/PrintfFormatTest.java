package io.ptxrun.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Float conversions against glibc's snprintf (the values below are what it printed for them);
 * the hardware's output for the common conversions is checked by the nvcc-printf-formats run case.
 */
class PrintfFormatTest {
    private static String format(String fmt, double v) {
        ByteBuffer b = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putDouble(0, v);
        return PrintfFormat.format(fmt, new PrintfFormat.Arguments() {
            @Override
            public long read(long offset, int size) {
                return b.getLong((int) offset);
            }

            @Override
            public String string(long address) {
                return "";
            }
        }).text();
    }

    @ParameterizedTest(name = "{0} of {1}")
    @CsvSource(delimiter = '|', value = {
        "%g|1e-05|1e-05",
        "%g|123456.0|123456",
        "%g|1234567.0|1.23457e+06",
        "%.0e|2.5|2e+00",
        "%.3g|0.000123456|0.000123",
        "%#g|1.0|1.00000",
        "%a|0.1|0x1.999999999999ap-4",
        "%.2a|0.3333333333333333|0x1.55p-2",
        "%a|5e-324|0x0.0000000000001p-1022",
        "%.0f|0.5|0",
        "%.0f|1.5|2",
        "%10.4e|-0.0|-0.0000e+00",
        "%G|1e100|1E+100",
        "%.15g|0.1|0.1",
        "%f|1e20|100000000000000000000.000000",
        "%e|9.9999999|1.000000e+01",
    })
    void floatsAsGlibcPrintsThem(String fmt, double v, String expected) {
        assertEquals(expected, format(fmt, v));
    }
}
