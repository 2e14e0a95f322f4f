package io.ptxrun.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.ptxrun.launch.TensorMap.Interleave;
import io.ptxrun.launch.TensorMap.L2Promotion;
import io.ptxrun.launch.TensorMap.OobFill;
import io.ptxrun.launch.TensorMap.Swizzle;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Accepts exactly the tensor maps that the CUDA driver's {@code cuTensorMapEncodeTiled} accepted
 * on an H100 (driver 580), as recorded by {@code record_tensor_map_rules.py}.
 */
class TensorMapDriverRulesTest {
    /** The recording placed maps at offsets from a 256-byte aligned allocation. */
    private static final long BASE_ADDRESS = 0x7F00_0000_0000L;

    @TestFactory
    Stream<DynamicTest> sameVerdictsAsTheDriver() {
        List<DynamicTest> tests = new ArrayList<>();
        for (JsonNode c : TestData.resource("tensor-map-driver.json")) {
            boolean accepted = c.get("accepted").asBoolean();
            tests.add(
                    DynamicTest.dynamicTest(
                            c.get("name").asText() + (accepted ? " (accepted)" : " (rejected)"),
                            () -> assertEquals(accepted, accepts(c.get("spec")), c.get("spec").toString())));
        }
        return tests.stream();
    }

    private static boolean accepts(JsonNode spec) {
        try {
            new TensorMap(
                    BASE_ADDRESS + spec.get("offset").asLong(),
                    ElementType.parse(spec.get("type").asText()),
                    longs(spec.get("dims")),
                    longs(spec.get("strides")),
                    ints(spec.get("box")),
                    ints(spec.get("elementStrides")),
                    option(Interleave.values(), spec.get("interleave")),
                    option(Swizzle.values(), spec.get("swizzle")),
                    option(L2Promotion.values(), spec.get("l2Promotion")),
                    option(OobFill.values(), spec.get("oobFill")));
            return true;
        } catch (LaunchException e) {
            return false;
        }
    }

    private static List<Long> longs(JsonNode array) {
        List<Long> values = new ArrayList<>();
        array.forEach(v -> values.add(v.asLong()));
        return values;
    }

    private static List<Integer> ints(JsonNode array) {
        List<Integer> values = new ArrayList<>();
        array.forEach(v -> values.add(v.asInt()));
        return values;
    }

    private static <E extends Enum<E>> E option(E[] values, JsonNode name) {
        return TensorMap.byJsonName(values, name.asText()).orElseThrow();
    }
}
