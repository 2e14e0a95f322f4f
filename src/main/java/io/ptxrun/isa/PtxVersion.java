package io.ptxrun.isa;

import java.util.Optional;

/** A PTX ISA version, `.version major.minor` (PTX ISA 11.1.1), ordered numerically. */
public record PtxVersion(int major, int minor) implements Comparable<PtxVersion> {
    /** The newest version the reference ptxas (CUDA 13.0) accepts: "Unsupported .version 9.1; current version is '9.0'". */
    public static final PtxVersion LATEST = new PtxVersion(9, 0);

    /** `.address_size` exists from 2.3: "Feature '.address_size directive' requires PTX ISA .version 2.3 or later". */
    public static final PtxVersion ADDRESS_SIZE_DIRECTIVE = new PtxVersion(2, 3);

    public static PtxVersion of(String text) {
        return parse(text).orElseThrow(() -> new IllegalArgumentException("not a PTX version: " + text));
    }

    public static Optional<PtxVersion> parse(String text) {
        int dot = text.indexOf('.');
        if (dot <= 0) {
            return Optional.empty();
        }
        try {
            return Optional.of(new PtxVersion(Integer.parseInt(text.substring(0, dot)),
                    Integer.parseInt(text.substring(dot + 1))));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /**
     * Versions ptxas knows: 1.0..1.5, 2.0..2.3, 3.0..3.2, 4.0..4.3, 5.0, 6.0..6.5, 7.0..7.8, 8.0..8.8,
     * 9.0 (ptxas: "Unsupported .version 6.9; current version is '9.0'").
     */
    public boolean isKnown() {
        int lastMinor = switch (major) {
            case 1 -> 5;
            case 2 -> 3;
            case 3 -> 2;
            case 4 -> 3;
            case 5 -> 0;
            case 6 -> 5;
            case 7 -> 8;
            case 8 -> 8;
            case 9 -> 0;
            default -> -1;
        };
        return minor >= 0 && minor <= lastMinor;
    }

    public boolean atLeast(PtxVersion other) {
        return compareTo(other) >= 0;
    }

    @Override
    public int compareTo(PtxVersion o) {
        return major != o.major ? Integer.compare(major, o.major) : Integer.compare(minor, o.minor);
    }

    @Override
    public String toString() {
        return major + "." + minor;
    }
}
