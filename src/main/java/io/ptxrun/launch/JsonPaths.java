package io.ptxrun.launch;

import java.util.regex.Pattern;

/** Builds the JSON paths used in messages: {@code buffers.in.count}, {@code params[2]}. */
final class JsonPaths {
    private static final Pattern PLAIN_KEY = Pattern.compile("[A-Za-z_$][A-Za-z0-9_$]*");

    private JsonPaths() {}

    static String key(String parent, String key) {
        String step = PLAIN_KEY.matcher(key).matches() ? key : "[\"" + key.replace("\\", "\\\\").replace("\"", "\\\"") + "\"]";
        return join(parent, step);
    }

    static String index(String parent, int index) {
        return parent + "[" + index + "]";
    }

    /**
     * The JSON Pointer (RFC 6901) of a path built here: {@code buffers.in.count} is
     * {@code /buffers/in/count}, {@code params[2]} is {@code /params/2}, {@code ["a/b"]} is
     * {@code /a~1b}; the empty path is the empty pointer (the whole document).
     */
    static String pointer(String path) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < path.length()) {
            char c = path.charAt(i);
            StringBuilder step = new StringBuilder();
            if (c == '.') {
                i++;
            } else if (c == '[' && i + 1 < path.length() && path.charAt(i + 1) == '"') {
                i += 2;
                while (i < path.length() && path.charAt(i) != '"') {
                    if (path.charAt(i) == '\\' && i + 1 < path.length()) {
                        i++;
                    }
                    step.append(path.charAt(i++));
                }
                i += 2; // the closing quote and bracket
                out.append('/').append(escape(step));
            } else if (c == '[') {
                int end = path.indexOf(']', i);
                end = end < 0 ? path.length() : end;
                out.append('/').append(path, i + 1, end);
                i = end + 1;
            } else {
                while (i < path.length() && path.charAt(i) != '.' && path.charAt(i) != '[') {
                    step.append(path.charAt(i++));
                }
                out.append('/').append(escape(step));
            }
        }
        return out.toString();
    }

    private static String escape(CharSequence key) {
        return key.toString().replace("~", "~0").replace("/", "~1");
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
