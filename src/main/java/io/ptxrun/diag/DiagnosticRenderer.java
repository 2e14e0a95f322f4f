package io.ptxrun.diag;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/** Diagnostics as compiler-style text (with the source line and a caret) or as JSON. */
public final class DiagnosticRenderer {
    private DiagnosticRenderer() {}

    /** Created on first use: text output, the common case, never pays for Jackson's start-up. */
    private static final class Json {
        static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    }

    /** `file:line:col: error: message`, then the source line and a caret under the column. */
    public static String text(Diagnostic d, SourceText source) {
        return text(d, source, SourceFiles.NONE);
    }

    /**
     * As {@link #text(Diagnostic, SourceText)}, then each note as `file:line:col: note: message`
     * with its line and caret when {@code files} can read the file it names.
     */
    public static String text(Diagnostic d, SourceText source, SourceFiles files) {
        StringBuilder sb = new StringBuilder(d.toString()).append('\n');
        excerpt(sb, source == null ? null : source.line(d.pos().line()), d.pos().column());
        for (Diagnostic.Note n : d.notes()) {
            sb.append(n.pos()).append(": note: ").append(n.message()).append('\n');
            excerpt(sb, files.get(n.pos().file()).map(t -> t.line(n.pos().line())).orElse(null), n.pos().column());
        }
        return sb.toString();
    }

    private static void excerpt(StringBuilder sb, String line, int column) {
        if (line != null) {
            sb.append(line).append('\n');
            int col = Math.max(1, column);
            for (int i = 0; i < col - 1 && i < line.length(); i++) {
                sb.append(line.charAt(i) == '\t' ? '\t' : ' ');
            }
            sb.append("^\n");
        }
    }

    /** One JSON object per file: `{"file": ..., "valid": ..., "diagnostics": [...]}`. */
    public static ObjectNode json(String file, List<Diagnostic> diagnostics) {
        return json(file, diagnostics, false);
    }

    /** As {@link #json(String, List)}; with warningsAreErrors (--Werror) a warning makes the file invalid. */
    public static ObjectNode json(String file, List<Diagnostic> diagnostics, boolean warningsAreErrors) {
        ObjectNode node = Json.MAPPER.createObjectNode();
        node.put("file", file);
        node.put("valid", diagnostics.stream().noneMatch(d -> d.isError()
                || (warningsAreErrors && d.severity() == Severity.WARNING)));
        ArrayNode list = node.putArray("diagnostics");
        for (Diagnostic d : diagnostics) {
            ObjectNode o = list.addObject();
            o.put("severity", d.severity().label());
            o.put("line", d.pos().line());
            o.put("column", d.pos().column());
            o.put("message", d.message());
            o.put("rule", d.rule());
            if (!d.notes().isEmpty()) {
                ArrayNode notes = o.putArray("notes");
                for (Diagnostic.Note n : d.notes()) {
                    notes.addObject().put("file", n.pos().file()).put("line", n.pos().line())
                            .put("column", n.pos().column()).put("message", n.message());
                }
            }
        }
        return node;
    }

    public static ObjectMapper mapper() {
        return Json.MAPPER;
    }
}
