package io.ptxrun.diag;

public enum Severity {
    ERROR, WARNING, NOTE;

    public String label() {
        return name().toLowerCase();
    }
}
