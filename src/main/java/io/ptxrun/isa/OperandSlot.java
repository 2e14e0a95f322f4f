package io.ptxrun.isa;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * One operand position of a form, written `name:kind|kind` (`?` after the name: optional, only at
 * the end). An immediate may carry a range `imm=0..15`, a set `imm=4/8/16` or a step `imm=32n`
 * (a multiple of 32; `imm=32n!0` also non-zero), or several joined by `&`. `~1..1048575` gives
 * the range the spec defines for a constant that ptxas nevertheless accepts outside it: such a
 * value is legal, and draws a warning (undefined behaviour). A vector or tensor its element count `vec16=2`,
 * `tensor=5`.
 */
public record OperandSlot(String name, boolean optional, Set<OperandKind> kinds, long min, long max,
                          Set<Long> allowedValues, long multipleOf, boolean nonZero, long definedMin,
                          long definedMax, int count) {

    public OperandSlot {
        kinds = Set.copyOf(kinds);
        allowedValues = Set.copyOf(allowedValues);
    }

    public static List<OperandSlot> parseList(String spec) {
        List<OperandSlot> out = new ArrayList<>();
        if (spec.isBlank()) {
            return List.of();
        }
        for (String s : spec.split(",")) {
            out.add(PARSED.computeIfAbsent(s.trim(), OperandSlot::parse));
        }
        return List.copyOf(out);
    }

    // The tables write the same slots in many lists (`d:t`, `a:addr`, `membermask:b32|imm`): each
    // is parsed once, and the lists share it (it is immutable).
    private static final Map<String, OperandSlot> PARSED = new ConcurrentHashMap<>();

    static OperandSlot parse(String s) {
        int colon = s.indexOf(':');
        String name = s.substring(0, colon);
        boolean optional = name.endsWith("?");
        if (optional) {
            name = name.substring(0, name.length() - 1);
        }
        EnumSet<OperandKind> kinds = EnumSet.noneOf(OperandKind.class);
        long min = Long.MIN_VALUE;
        long max = Long.MAX_VALUE;
        Set<Long> values = new TreeSet<>();
        long multipleOf = 1;
        boolean nonZero = false;
        long definedMin = Long.MIN_VALUE;
        long definedMax = Long.MAX_VALUE;
        int count = 0;
        for (String k : s.substring(colon + 1).split("\\|")) {
            int eq = k.indexOf('=');
            String kind = eq < 0 ? k : k.substring(0, eq);
            String arg = eq < 0 ? null : k.substring(eq + 1);
            kinds.add(OperandKind.ofSpelling(kind));
            if (arg == null) {
                continue;
            }
            if (kind.equals("sel")) {
                // byte selectors (a set) : thread selectors (a range)
                String[] halves = arg.split(":");
                for (String v : halves[0].split("/")) {
                    values.add(Long.parseLong(v));
                }
                min = Long.parseLong(halves[1].substring(0, halves[1].indexOf("..")));
                max = Long.parseLong(halves[1].substring(halves[1].indexOf("..") + 2));
                count = 2;
                continue;
            }
            for (String part : arg.split("&")) {
                if (part.startsWith("~")) {
                    definedMin = Long.parseLong(part.substring(1, part.indexOf("..")));
                    definedMax = Long.parseLong(part.substring(part.indexOf("..") + 2));
                } else if (part.contains("n")) {
                    multipleOf = Long.parseLong(part.substring(0, part.indexOf('n')));
                    nonZero = part.endsWith("!0");
                } else if (part.contains("..")) {
                    min = Long.parseLong(part.substring(0, part.indexOf("..")));
                    max = Long.parseLong(part.substring(part.indexOf("..") + 2));
                } else if (kind.equals("imm")) {
                    for (String v : part.split("/")) {
                        values.add(Long.parseLong(v));
                    }
                } else {
                    count = Integer.parseInt(part);
                }
            }
        }
        return new OperandSlot(name, optional, kinds, min, max, values, multipleOf, nonZero, definedMin, definedMax,
                count);
    }

    /** Whether an integer constant is allowed here, given the slot's range or set. */
    public boolean admits(long value) {
        return (allowedValues.isEmpty() || allowedValues.contains(value)) && value >= min && value <= max
                && value % multipleOf == 0 && (!nonZero || value != 0);
    }

    /** Whether a legal constant is also within the range whose behaviour the spec defines. */
    public boolean isDefined(long value) {
        return value >= definedMin && value <= definedMax;
    }

    public String definedRange() {
        return definedMin + ".." + definedMax;
    }

    /** "0..15", "4, 8 or 16", or "" without a constraint. */
    public String immediateConstraint() {
        if (!allowedValues.isEmpty()) {
            List<String> vs = allowedValues.stream().map(String::valueOf).toList();
            return vs.size() == 1 ? vs.get(0)
                    : String.join(", ", vs.subList(0, vs.size() - 1)) + " or " + vs.get(vs.size() - 1);
        }
        List<String> parts = new ArrayList<>();
        if (multipleOf > 1) {
            parts.add((nonZero ? "a non-zero " : "a ") + "multiple of " + multipleOf);
        }
        if (min != Long.MIN_VALUE || max != Long.MAX_VALUE) {
            parts.add("in " + min + ".." + max);
        }
        return String.join(" ", parts);
    }

    public String describe() {
        return kinds.stream().map(k -> switch (k) {
            case IMMEDIATE -> immediateConstraint().isEmpty() ? k.description
                    : "a constant " + immediateConstraint();
            case VECTOR16 -> "a vector of " + count + " 16-bit values";
            case TENSOR -> "a tensor reference with " + count + " coordinates";
            case VECTOR_U32 -> "a vector of " + count + " 32-bit integer registers";
            case VECTOR_F32 -> "a vector of " + count + " .f32 registers";
            case VECTOR_B32 -> "a vector of " + count + " 32-bit registers";
            case VECTOR_F64 -> "a vector of " + count + " .f64 registers";
            case VECTOR_BITS32 -> "a vector of " + count + " .b32 registers";
            case VECTOR_F16X2 -> "a vector of " + count + " .f16x2 or .b32 registers";
            case VECTOR_F32_BITS -> "a vector of " + count + " .f32 or .b32 registers";
            case VECTOR_64 -> "a vector of " + count + " 64-bit registers";
            case SELECTOR -> "a pair {byte-id, thread-id} of 16-bit registers or constants, byte-id "
                    + immediateConstraint() + ", thread-id in " + min + ".." + max;
            default -> k.description;
        }).collect(Collectors.joining(" or "));
    }
}
