package io.ptxrun.fuzz;

import java.util.ArrayList;
import java.util.List;

/**
 * Launch flags as the command line takes them (--grid, --block, --cluster, --shared-bytes and
 * --arg values), built from boundary numbers, types and initialisers and then edited character by
 * character.
 */
final class FlagMutator {
    private static final List<String> EXTENTS = List.of("1", "2", "32", "1024", "1025", "65535", "65536",
            "2147483647", "2147483648", "0", "-1", "99999999999999999999");
    private static final List<String> TYPES = List.of("u8", "s8", "u16", "s16", "u32", "s32", "u64", "s64", "f16",
            "bf16", "f32", "f64", "b32", "pred", "x");
    private static final List<String> INITS = List.of("0", "-1", "iota", "random:1", "random:", "1.5", "NaN",
            "0x7fffffff", "18446744073709551616", "[1,2,3]", "[]", "[1,", "inf");

    private FlagMutator() {}

    static List<String> mutate(Choices c) {
        List<String> f = new ArrayList<>();
        f.add(dims(c));
        f.add(dims(c));
        f.add(c.below(3) == 0 ? dims(c) : "");
        f.add(c.below(4) == 0 ? c.pick(EXTENTS) : "");
        for (int n = c.below(4); n >= 0; n--) {
            f.add(switch (c.below(3)) {
                case 0 -> "b" + n + "=" + c.pick(TYPES) + "[" + c.pick(EXTENTS) + "]:" + c.pick(INITS);
                case 1 -> "v" + n + "=" + c.pick(TYPES) + ":" + c.pick(INITS);
                default -> c.pick(TYPES) + ":" + c.pick(INITS);
            });
        }
        // A few character edits anywhere.
        for (int e = c.below(3); e > 0; e--) {
            int i = c.below(f.size());
            StringBuilder s = new StringBuilder(f.get(i));
            int at = c.below(s.length() + 1);
            s.insert(at, c.rest(1 + c.below(3)));
            f.set(i, s.toString());
        }
        return f;
    }

    private static String dims(Choices c) {
        StringBuilder s = new StringBuilder(c.pick(EXTENTS));
        for (int n = c.below(4); n > 0; n--) {
            s.append(',').append(c.pick(EXTENTS));
        }
        return s.toString();
    }
}
