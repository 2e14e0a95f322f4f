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
        StringBuilder sb = new StringBuilder(d.toString()).append('\n');
        String line = source == null ? null : source.line(d.pos().line());
        if (line != null) {
            sb.append(line).append('\n');
            int col = Math.max(1, d.pos().column());
            for (int i = 0; i < col - 1 && i < line.length(); i++) {
                sb.append(line.charAt(i) == '\t' ? '\t' : ' ');
            }
            sb.append("^\n");
        }
        return sb.toString();
    }

    /** One JSON object per file: `{"file": ..., "valid": ..., "diagnostics": [...]}`. */
    public static ObjectNode json(String file, List<Diagnostic> diagnostics) {
        ObjectNode node = Json.MAPPER.createObjectNode();
        node.put("file", file);
        node.put("valid", diagnostics.stream().noneMatch(Diagnostic::isError));
        ArrayNode list = node.putArray("diagnostics");
        for (Diagnostic d : diagnostics) {
            ObjectNode o = list.addObject();
            o.put("severity", d.severity().label());
            o.put("line", d.pos().line());
            o.put("column", d.pos().column());
            o.put("message", d.message());
            o.put("rule", d.rule());
        }
        return node;
    }

    public static ObjectMapper mapper() {
        return Json.MAPPER;
    }
}
