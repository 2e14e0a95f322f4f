package io.ptxrun.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigInteger;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class SplitMix64Test {

    @Test
    void firstOutputForSeedZeroIsTheReferenceValue() {
        // The value published with the reference implementation (Vigna's splitmix64.c).
        assertEquals(0xE220A8397B1DCDAFL, new SplitMix64(0).next());
    }

    @Test
    void outputsMatchPythonIntegers() {
        JsonNode cases = TestData.resource("splitmix64.json");
        for (JsonNode c : cases) {
            long seed = new BigInteger(c.get("seed").asText()).longValue();
            SplitMix64 generator = new SplitMix64(seed);
            for (int i = 0; i < c.get("outputs").size(); i++) {
                long expected = new BigInteger(c.get("outputs").get(i).asText()).longValue();
                assertEquals(expected, generator.next(), "seed " + c.get("seed") + " output " + i);
                assertEquals(expected, SplitMix64.nth(seed, i), "nth, seed " + c.get("seed") + " output " + i);
            }
        }
    }

    @Property
    void nthAgreesWithSequentialOutputs(@ForAll long seed, @ForAll @IntRange(min = 0, max = 200) int index) {
        SplitMix64 generator = new SplitMix64(seed);
        long value = 0;
        for (int i = 0; i <= index; i++) {
            value = generator.next();
        }
        assertEquals(value, SplitMix64.nth(seed, index));
    }
}
