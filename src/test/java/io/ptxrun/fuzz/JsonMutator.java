package io.ptxrun.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * Structure-aware edits of launch files: a node of the JSON tree is replaced by a boundary value
 * (extreme integers, fractions, special strings, wrong kinds), removed, repeated, renamed or
 * swapped with a node of another launch file, so the result is still JSON and reaches the reader's
 * checks rather than the JSON parser's.
 */
final class JsonMutator {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private JsonMutator() {}

    static String mutate(String launch, Choices c, int maxEdits) {
        JsonNode root;
        try {
            root = JSON.readTree(launch);
        } catch (Exception e) {
            return launch;
        }
        int edits = 1 + c.below(maxEdits);
        for (int e = 0; e < edits; e++) {
            List<JsonNode[]> places = new ArrayList<>();
            collect(root, null, places);
            if (places.isEmpty()) {
                break;
            }
            JsonNode[] place = places.get(c.below(places.size()));
            JsonNode parent = place[0];
            JsonNode node = place[1];
            switch (c.below(6)) {
                case 0, 1 -> replace(parent, node, boundaryValue(c));
                case 2 -> remove(parent, node);
                case 3 -> {
                    if (parent instanceof ArrayNode a) {
                        a.add(node.deepCopy());
                    } else if (parent instanceof ObjectNode o) {
                        o.set(fieldName(o, node) + c.pick(List.of("s", "_", "2", "")), node.deepCopy());
                    }
                }
                case 4 -> {
                    List<JsonNode[]> others = new ArrayList<>();
                    try {
                        collect(JSON.readTree(c.pick(Seeds.LAUNCH_FILES)), null, others);
                    } catch (Exception ex) {
                        break;
                    }
                    if (!others.isEmpty()) {
                        replace(parent, node, others.get(c.below(others.size()))[1].deepCopy());
                    }
                }
                default -> {
                    if (node.isNumber()) {
                        replace(parent, node, F.numberNode(node.bigIntegerValue().add(BigInteger.valueOf(c.below(3) - 1))));
                    } else {
                        replace(parent, node, boundaryValue(c));
                    }
                }
            }
        }
        return root.toString();
    }

    private static JsonNode boundaryValue(Choices c) {
        return switch (c.below(16)) {
            case 0 -> F.numberNode(0);
            case 1 -> F.numberNode(-1);
            case 2 -> F.numberNode(Integer.MAX_VALUE);
            case 3 -> F.numberNode(1L << 31);
            case 4 -> F.numberNode(Long.MAX_VALUE);
            case 5 -> F.numberNode(new BigInteger("18446744073709551616"));
            case 6 -> F.numberNode(1.5);
            case 7 -> F.numberNode(1e308);
            case 8 -> F.textNode(c.pick(List.of("NaN", "Infinity", "-Infinity", "", "iota", "random", "u32", "x")));
            case 9 -> F.nullNode();
            case 10 -> F.arrayNode();
            case 11 -> F.objectNode();
            case 12 -> F.booleanNode(true);
            case 13 -> F.arrayNode().add(65535).add(65535).add(65535);
            case 14 -> F.numberNode(65536);
            default -> F.numberNode(c.below(70000));
        };
    }

    /** Every (parent, child) pair below the root. */
    private static void collect(JsonNode node, JsonNode parent, List<JsonNode[]> out) {
        if (parent != null) {
            out.add(new JsonNode[] {parent, node});
        }
        node.forEach(child -> collect(child, node, out));
    }

    private static String fieldName(ObjectNode o, JsonNode child) {
        var it = o.fields();
        while (it.hasNext()) {
            var e = it.next();
            if (e.getValue() == child) {
                return e.getKey();
            }
        }
        return "x";
    }

    private static void replace(JsonNode parent, JsonNode old, JsonNode now) {
        if (parent instanceof ObjectNode o) {
            o.set(fieldName(o, old), now);
        } else if (parent instanceof ArrayNode a) {
            for (int i = 0; i < a.size(); i++) {
                if (a.get(i) == old) {
                    a.set(i, now);
                    return;
                }
            }
        }
    }

    private static void remove(JsonNode parent, JsonNode old) {
        if (parent instanceof ObjectNode o) {
            o.remove(fieldName(o, old));
        } else if (parent instanceof ArrayNode a) {
            for (int i = 0; i < a.size(); i++) {
                if (a.get(i) == old) {
                    a.remove(i);
                    return;
                }
            }
        }
    }
}
