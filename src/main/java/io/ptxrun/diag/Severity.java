package io.ptxrun.diag;

public enum Severity {
    ERROR, WARNING, NOTE;

    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    /** The severity whose label is name (`error`, `warning`, `note`). */
    public static java.util.Optional<Severity> fromLabel(String name) {
        return java.util.Arrays.stream(values()).filter(s -> s.label().equals(name)).findFirst();
    }
}
