package io.ptxrun.launch;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/** Why a run stopped, as the result file's {@code status} says it (in lower case). */
public enum RunStatus {
    /** The kernel ran to completion. */
    OK,
    /** The kernel executed {@code trap}. */
    TRAP,
    /** Out-of-bounds access, undefined behaviour, or a launch the driver refuses. */
    ERROR,
    /** No thread can make progress. */
    DEADLOCK,
    /** The instruction or time budget ran out. */
    TIMEOUT;

    public String jsonName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<RunStatus> fromJsonName(String name) {
        return Arrays.stream(values()).filter(s -> s.jsonName().equals(name)).findFirst();
    }

    public static List<String> jsonNames() {
        return Arrays.stream(values()).map(RunStatus::jsonName).collect(Collectors.toUnmodifiableList());
    }

    @Override
    public String toString() {
        return jsonName();
    }
}
