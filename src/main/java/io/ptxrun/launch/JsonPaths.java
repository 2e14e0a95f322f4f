package io.ptxrun.launch;

import java.util.regex.Pattern;

/** Builds the JSON paths used in messages: {@code buffers.in.count}, {@code params[2]}. */
final class JsonPaths {
    private static final Pattern PLAIN_KEY = Pattern.compile("[A-Za-z_$][A-Za-z0-9_$]*");

    private JsonPaths() {}

    static String key(String parent, String key) {
        String step = PLAIN_KEY.matcher(key).matches() ? key : "[\"" + key.replace("\"", "\\\"") + "\"]";
        return join(parent, step);
    }

    static String index(String parent, int index) {
        return parent + "[" + index + "]";
    }

    /** Appends a relative path ({@code count}, {@code [3]}, {@code ["a b"].x}) to an outer one. */
    static String join(String outer, String inner) {
        if (outer.isEmpty()) {
            return inner;
        }
        if (inner.isEmpty()) {
            return outer;
        }
        return inner.startsWith("[") ? outer + inner : outer + "." + inner;
    }
}
