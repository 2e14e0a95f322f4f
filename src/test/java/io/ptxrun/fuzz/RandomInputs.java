package io.ptxrun.fuzz;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/**
 * Inputs without coverage guidance, for the CI smoke run: random bytes for the structured targets
 * (they are choices), and for the byte targets a seed file with a few bytes flipped, inserted or
 * removed, or, one time in four, bytes at random.
 */
final class RandomInputs {
    private RandomInputs() {}

    static byte[] next(String target, SplittableRandom random) {
        if (!target.endsWith("-bytes")) {
            byte[] b = new byte[random.nextInt(1, 64)];
            random.nextBytes(b);
            return b;
        }
        if (random.nextInt(4) == 0) {
            byte[] b = new byte[random.nextInt(0, 512)];
            random.nextBytes(b);
            return b;
        }
        var seeds = target.startsWith("launch") ? Seeds.LAUNCH_FILES : Seeds.MODULES;
        StringBuilder s = new StringBuilder(seeds.get(random.nextInt(seeds.size())));
        for (int k = random.nextInt(1, 6); k > 0 && s.length() > 0; k--) {
            int at = random.nextInt(s.length());
            switch (random.nextInt(3)) {
                case 0 -> s.setCharAt(at, (char) random.nextInt(1, 128));
                case 1 -> s.insert(at, (char) random.nextInt(1, 128));
                default -> s.deleteCharAt(at);
            }
        }
        return s.toString().getBytes(StandardCharsets.UTF_8);
    }

    static String hex(byte[] b) {
        StringBuilder s = new StringBuilder();
        for (byte x : b) {
            s.append(String.format("%02x", x));
        }
        return s.toString();
    }
}
