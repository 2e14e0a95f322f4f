package io.ptxrun.diag;

/** The text of an input file, with fast access to a line for diagnostics. */
public final class SourceText {
    private final String name;
    private final String text;
    private int[] lineStarts;

    public SourceText(String name, String text) {
        this.name = name;
        this.text = text;
    }

    public String name() {
        return name;
    }

    public String text() {
        return text;
    }

    /** Line n (1-based) without its terminator, or null if out of range. */
    public String line(int n) {
        if (lineStarts == null) {
            int count = 1;
            for (int i = 0; i < text.length(); i++) {
                if (text.charAt(i) == '\n') {
                    count++;
                }
            }
            lineStarts = new int[count];
            int k = 1;
            for (int i = 0; i < text.length(); i++) {
                if (text.charAt(i) == '\n') {
                    lineStarts[k++] = i + 1;
                }
            }
        }
        if (n < 1 || n > lineStarts.length) {
            return null;
        }
        int start = lineStarts[n - 1];
        int end = n < lineStarts.length ? lineStarts[n] - 1 : text.length();
        if (end > start && text.charAt(end - 1) == '\r') {
            end--;
        }
        String s = text.substring(start, Math.max(start, end));
        return s.length() > 400 ? s.substring(0, 400) + "..." : s;
    }
}
