package io.ptxrun.launch;

import java.util.List;
import java.util.regex.Pattern;

/** A grid, block or cluster shape: three positive extents, innermost ({@code x}) first. */
public record Dim3(int x, int y, int z) {
    public static final Dim3 ONE = new Dim3(1, 1, 1);

    private static final Pattern TEXT = Pattern.compile("\\d+(,\\d+){0,2}");

    public Dim3 {
        if (x < 1 || y < 1 || z < 1) {
            throw new LaunchException("expected 1 to 3 positive integers, got " + List.of(x, y, z));
        }
    }

    /** A shape from 1 to 3 extents; the missing ones are 1. */
    public static Dim3 of(List<Integer> extents) {
        if (extents.isEmpty() || extents.size() > 3) {
            throw new LaunchException("expected 1 to 3 positive integers, got " + extents.size() + " values");
        }
        return new Dim3(
                extents.get(0),
                extents.size() > 1 ? extents.get(1) : 1,
                extents.size() > 2 ? extents.get(2) : 1);
    }

    /** Parses the command-line form: {@code 4}, {@code 4,2} or {@code 4,2,1}. */
    public static Dim3 parse(String text) {
        String compact = text.replace(" ", "");
        if (!TEXT.matcher(compact).matches()) {
            throw new LaunchException(
                    "expected 1 to 3 positive integers separated by commas, got '" + text + "'");
        }
        String[] parts = compact.split(",");
        int[] extents = {1, 1, 1};
        for (int i = 0; i < parts.length; i++) {
            try {
                extents[i] = Integer.parseInt(parts[i]);
            } catch (NumberFormatException e) {
                throw new LaunchException(parts[i] + " is too large (at most " + Integer.MAX_VALUE + ")");
            }
        }
        return new Dim3(extents[0], extents[1], extents[2]);
    }

    /** The number of points: {@code x * y * z}. */
    public long count() {
        return (long) x * y * z;
    }

    public List<Integer> toList() {
        return List.of(x, y, z);
    }

    @Override
    public String toString() {
        return "[" + x + ", " + y + ", " + z + "]";
    }
}
