package io.ptxrun.diag;

import io.ptxrun.ast.SourcePos;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Collects diagnostics for one input, up to a limit, so that a file of garbage produces a bounded
 * report instead of millions of lines.
 */
public final class Diagnostics {
    public static final int DEFAULT_LIMIT = 100;

    private final List<Diagnostic> list = new ArrayList<>();
    private final int limit;
    private boolean truncated;

    public Diagnostics() {
        this(DEFAULT_LIMIT);
    }

    public Diagnostics(int limit) {
        this.limit = limit;
    }

    public void add(Diagnostic d) {
        if (list.size() < limit) {
            list.add(d);
        } else {
            truncated = true;
        }
    }

    public void error(SourcePos pos, String rule, String message) {
        add(Diagnostic.error(pos, rule, message));
    }

    public void warning(SourcePos pos, String rule, String message) {
        add(Diagnostic.warning(pos, rule, message));
    }

    public boolean isFull() {
        return list.size() >= limit;
    }

    public boolean truncated() {
        return truncated;
    }

    public boolean hasErrors() {
        for (Diagnostic d : list) {
            if (d.isError()) {
                return true;
            }
        }
        return false;
    }

    public List<Diagnostic> list() {
        return Collections.unmodifiableList(list);
    }
}
