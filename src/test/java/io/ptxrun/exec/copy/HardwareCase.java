package io.ptxrun.exec.copy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ptxrun.launch.LaunchFile;
import io.ptxrun.launch.ResultBuffer;
import io.ptxrun.launch.ResultJson;
import io.ptxrun.launch.RunResult;
import io.ptxrun.launch.TensorMap;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * A recorded hardware case of {@code testdata/run}: the launch file's initial buffers and the
 * buffers the H100 produced, for tests that replay a kernel's few copy instructions by hand.
 */
final class HardwareCase {

    /** Where tests place every buffer: any 1024-aligned address does. */
    static final long BASE = 0x100000;

    final LaunchFile launch;
    final RunResult expected;

    private HardwareCase(String name, boolean recorded) {
        Path dir = Path.of("testdata", "run", name);
        launch = LaunchFile.read(dir.resolve("launch.json"));
        expected = recorded ? ResultJson.read(dir.resolve("expected.json")) : null;
    }

    static HardwareCase of(String name) {
        return new HardwareCase(name, true);
    }

    /** A case whose kernel has not been recorded on hardware yet ({@code expected} is null). */
    static HardwareCase of(String name, boolean recorded) {
        return new HardwareCase(name, recorded);
    }

    /** The buffer's initial bytes, as the launch file defines them. */
    byte[] initial(String buffer) {
        return launch.buffers().get(buffer).initialContents();
    }

    /** The tensor map named {@code name} over its buffer placed at {@link #BASE}. */
    TensorMap map(String name) {
        return launch.tensorMaps().get(name).toTensorMap(BASE);
    }

    /** Compares {@code actual} with the recorded buffer, reporting the first differing element. */
    void assertBuffer(String buffer, byte[] actual) {
        ResultBuffer recorded = expected.buffers().get(buffer);
        byte[] want = recorded.contents();
        int size = recorded.type().byteSize();
        for (int i = 0; i < want.length / size; i++) {
            long w = recorded.bits(i);
            long a = BulkReduction.read(actual, i * size, size);
            assertEquals(
                    Long.toHexString(w), Long.toHexString(a), buffer + "[" + i + "] differs from the H100's");
        }
        assertEquals(want.length, actual.length, buffer + " length");
    }

    /** {@code count} bytes filled with {@code value} (the kernels' 0x77 sentinel). */
    static byte[] filled(int count, int value) {
        byte[] bytes = new byte[count];
        Arrays.fill(bytes, (byte) value);
        return bytes;
    }
}
