package io.ptxrun.ast;

import java.lang.reflect.RecordComponent;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;

/**
 * A canonical, indented dump of an AST without source positions: the golden format of parse
 * tests, and the equality used by the print/re-parse round trip.
 */
public final class AstDump {
    private AstDump() {}

    public static String dump(Object node) {
        StringBuilder sb = new StringBuilder();
        write(sb, node, 0);
        return sb.toString();
    }

    private static void write(StringBuilder sb, Object value, int indent) {
        if (value instanceof Optional<?> o) {
            if (o.isEmpty()) {
                sb.append("none");
            } else {
                write(sb, o.get(), indent);
            }
        } else if (value instanceof Collection<?> c) {
            if (c.isEmpty()) {
                sb.append("[]");
                return;
            }
            sb.append('[');
            for (Object e : c) {
                newline(sb, indent + 1);
                write(sb, e, indent + 1);
            }
            sb.append(']');
        } else if (value instanceof Map<?, ?> m) {
            sb.append(m);
        } else if (value instanceof Record r) {
            sb.append(r.getClass().getSimpleName()).append('(');
            boolean first = true;
            for (RecordComponent c : r.getClass().getRecordComponents()) {
                if (c.getName().equals("pos")) {
                    continue;
                }
                if (!first) {
                    sb.append(", ");
                }
                first = false;
                sb.append(c.getName()).append('=');
                try {
                    write(sb, c.getAccessor().invoke(r), indent);
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException(e);
                }
            }
            sb.append(')');
        } else if (value instanceof String s) {
            sb.append('"').append(s).append('"');
        } else if (value instanceof Character ch) {
            sb.append(ch == 0 ? "none" : "'" + ch + "'");
        } else {
            sb.append(value);
        }
    }

    private static void newline(StringBuilder sb, int indent) {
        sb.append('\n');
        sb.append("  ".repeat(indent));
    }
}
