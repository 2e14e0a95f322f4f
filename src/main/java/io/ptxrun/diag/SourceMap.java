package io.ptxrun.diag;

import io.ptxrun.ast.Block;
import io.ptxrun.ast.Function;
import io.ptxrun.ast.Instruction;
import io.ptxrun.ast.Module;
import io.ptxrun.ast.ModuleItem;
import io.ptxrun.ast.Operand;
import io.ptxrun.ast.SourcePos;
import io.ptxrun.ast.Statement;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The CUDA source line of every PTX instruction of a module compiled with {@code nvcc -lineinfo}
 * or {@code -G}: each instruction belongs to the nearest {@code .loc} before it in its function
 * (PTX ISA 11.6.2), whose file index names a {@code .file} (11.6.1, often written at the end of
 * the module). {@code inlined_at} chains are followed through the location that each call site
 * was last stated with, and {@code function_name} labels are read from the {@code .debug_str}
 * section. A {@code .loc} with line 0 (code the compiler attributes to no line) leaves the
 * following instructions without a location.
 *
 * <p>Every diagnostic that names a PTX instruction can name its CUDA line the same way:
 * {@code SourceMap.of(module).locate(op.pos)} for one site, {@link #describe} for a message
 * fragment, {@link #annotate} to add the location to a diagnostic as a note.
 */
public final class SourceMap {
    private static final SourceMap EMPTY = new SourceMap(Map.of());
    private static final int MAX_INLINE_DEPTH = 64;

    private final Map<SourcePos, CudaLocation> byInstruction;
    /** The same locations by PTX line (column 0), then by the column each instruction starts at. */
    private final Map<SourcePos, TreeMap<Integer, CudaLocation>> byLine = new HashMap<>();

    private SourceMap(Map<SourcePos, CudaLocation> byInstruction) {
        this.byInstruction = byInstruction;
        byInstruction.forEach((pos, l) -> byLine.computeIfAbsent(new SourcePos(pos.file(), pos.line(), 0),
                k -> new TreeMap<>()).put(pos.column(), l));
    }

    /** The map of a module; empty (every lookup absent) for a module without line information. */
    public static SourceMap of(Module module) {
        Map<Integer, String> files = new HashMap<>();
        for (ModuleItem item : module.items()) {
            if (item instanceof ModuleItem.FileDecl f) {
                files.put(f.index(), f.path());
            }
        }
        if (files.isEmpty()) {
            return EMPTY;
        }
        Map<String, String> strings = debugStrings(module);
        Map<SourcePos, CudaLocation> map = new HashMap<>();
        for (Function f : module.functions()) {
            if (f.body().isPresent()) {
                new Walk(files, strings, map).block(f.body().get());
            }
        }
        return new SourceMap(map);
    }

    /**
     * The CUDA location of the instruction at {@code ptxPos}, if the module says: the instruction
     * that starts there, or else the one on that line that {@code ptxPos} falls in (a check
     * diagnostic points at an operand or qualifier, not at the instruction's start).
     */
    public Optional<CudaLocation> locate(SourcePos ptxPos) {
        CudaLocation exact = byInstruction.get(ptxPos);
        if (exact != null) {
            return Optional.of(exact);
        }
        TreeMap<Integer, CudaLocation> line = byLine.get(new SourcePos(ptxPos.file(), ptxPos.line(), 0));
        if (line == null) {
            return Optional.empty();
        }
        Map.Entry<Integer, CudaLocation> at = line.floorEntry(ptxPos.column());
        return Optional.of(at != null ? at.getValue() : line.firstEntry().getValue());
    }

    /** Each diagnostic with the CUDA location of the instruction it names, as {@link #annotate} adds it. */
    public List<Diagnostic> annotate(List<Diagnostic> diagnostics) {
        if (isEmpty()) {
            return diagnostics;
        }
        List<Diagnostic> out = new ArrayList<>(diagnostics.size());
        for (Diagnostic d : diagnostics) {
            out.add(annotate(d));
        }
        return Collections.unmodifiableList(out);
    }

    /** {@code " [kernel.cu:5:5 (in f, inlined at kernel.cu:12:9)]"} for messages, or "" when unknown. */
    public String describe(SourcePos ptxPos) {
        return locate(ptxPos).map(l -> " [" + l + "]").orElse("");
    }

    /** The diagnostic with its CUDA location (and each inlining call site) as notes, when known. */
    public Diagnostic annotate(Diagnostic d) {
        Optional<CudaLocation> at = locate(d.pos());
        if (at.isEmpty()) {
            return d;
        }
        List<Diagnostic.Note> notes = new ArrayList<>(d.notes());
        notes.addAll(notes(at.get()));
        return d.withNotes(notes);
    }

    /** A CUDA location as notes: the line itself, then each site its code was inlined at. */
    public static List<Diagnostic.Note> notes(CudaLocation l) {
        List<Diagnostic.Note> notes = new ArrayList<>();
        notes.add(new Diagnostic.Note(l.pos(), "CUDA source" + l.function().map(f -> " (in " + f + ")").orElse("")));
        for (CudaLocation up = l; up.inlinedAt().isPresent(); up = up.inlinedAt().get()) {
            CudaLocation site = up.inlinedAt().get();
            notes.add(new Diagnostic.Note(site.pos(), "inlined from here"
                    + site.function().map(f -> " (in " + f + ")").orElse("")));
        }
        return notes;
    }

    public boolean isEmpty() {
        return byInstruction.isEmpty();
    }

    /** One function body in order: the current .loc applies to each instruction met. */
    private static final class Walk {
        private final Map<Integer, String> files;
        private final Map<String, String> strings;
        private final Map<SourcePos, CudaLocation> out;
        /** Each stated location (file:line:col) with the chain it was last stated with. */
        private final Map<String, CudaLocation> stated = new HashMap<>();
        private CudaLocation current;

        Walk(Map<Integer, String> files, Map<String, String> strings, Map<SourcePos, CudaLocation> out) {
            this.files = files;
            this.strings = strings;
            this.out = out;
        }

        void block(Block b) {
            for (Statement s : b.statements()) {
                if (s instanceof Statement.Loc loc) {
                    current = location(loc);
                } else if (s instanceof Instruction i && current != null) {
                    out.put(i.pos(), current);
                } else if (s instanceof Block inner) {
                    block(inner);
                }
            }
        }

        private CudaLocation location(Statement.Loc loc) {
            String file = files.get(loc.file());
            if (file == null || loc.line() <= 0) {
                return null;
            }
            Optional<String> function = Optional.empty();
            CudaLocation inlinedAt = null;
            for (String attr : loc.attributes()) {
                String[] w = attr.split(" ");
                if (w[0].equals("function_name") && w.length > 1) {
                    function = Optional.ofNullable(strings.get(w[1])).map(SourceMap::shortName);
                } else if (w[0].equals("inlined_at") && w.length == 4) {
                    inlinedAt = site(w);
                }
            }
            CudaLocation l = new CudaLocation(file, loc.line(), loc.column(), function, Optional.ofNullable(inlinedAt));
            stated.put(key(loc.file(), loc.line(), loc.column()), l);
            return l;
        }

        /** The call site {@code inlined_at F L C}, with the chain it was itself last stated with. */
        private CudaLocation site(String[] w) {
            try {
                int f = Integer.parseInt(w[1]), line = Integer.parseInt(w[2]), col = Integer.parseInt(w[3]);
                CudaLocation known = stated.get(key(f, line, col));
                if (known != null && depth(known) < MAX_INLINE_DEPTH) {
                    return known;
                }
                String file = files.get(f);
                return file == null ? null : new CudaLocation(file, line, col, Optional.empty(), Optional.empty());
            } catch (NumberFormatException e) {
                return null;
            }
        }

        private static int depth(CudaLocation l) {
            int d = 0;
            for (CudaLocation u = l; u.inlinedAt().isPresent(); u = u.inlinedAt().get()) {
                d++;
            }
            return d;
        }

        private static String key(int file, int line, int col) {
            return file + ":" + line + ":" + col;
        }
    }

    /** The NUL-terminated strings after each label of {@code .section .debug_str}. */
    private static Map<String, String> debugStrings(Module module) {
        Map<String, String> strings = new HashMap<>();
        for (ModuleItem item : module.items()) {
            if (!(item instanceof ModuleItem.Section s) || !s.name().equals(".debug_str")) {
                continue;
            }
            String label = null;
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            boolean ended = false;
            for (ModuleItem.SectionEntry e : s.entries()) {
                if (e instanceof ModuleItem.SectionLabel l) {
                    label = l.name();
                    bytes.reset();
                    ended = false;
                } else if (e instanceof ModuleItem.SectionData d && label != null && !ended) {
                    for (Object v : d.values()) {
                        if (!(v instanceof Operand.IntImm imm) || imm.value() == 0) {
                            ended = true;
                            break;
                        }
                        bytes.write((int) imm.value());
                    }
                    strings.put(label, bytes.toString(StandardCharsets.UTF_8));
                }
            }
        }
        return strings;
    }

    /**
     * The last name component of an Itanium-mangled function name, template arguments skipped
     * ({@code _ZN...9atomicAddEPii} is {@code atomicAdd}, {@code _ZN4cuda...7barrierILi3EE4waitEOm}
     * is {@code wait}); other names as they are.
     */
    static String shortName(String mangled) {
        if (!mangled.startsWith("_Z")) {
            return mangled;
        }
        int i = 2;
        boolean nested = i < mangled.length() && mangled.charAt(i) == 'N';
        if (nested) {
            i++;
        }
        String last = null;
        while (i < mangled.length()) {
            char c = mangled.charAt(i);
            if (c == 'K' || c == 'V' || c == 'r') {
                i++;
            } else if (c == 'I') {
                i = skipTemplateArguments(mangled, i);
            } else if (Character.isDigit(c)) {
                int j = i;
                while (j < mangled.length() && Character.isDigit(mangled.charAt(j))) {
                    j++;
                }
                int len = Integer.parseInt(mangled.substring(i, Math.min(j, i + 6)));
                if (j + len > mangled.length()) {
                    return mangled;
                }
                last = mangled.substring(j, j + len);
                i = j + len;
                if (!nested) {
                    break;
                }
            } else if (c == 'S' && nested) {
                // a substitution (S_, S0_, St, ...) standing for an earlier prefix
                int j = mangled.indexOf('_', i);
                i = j < 0 || j > i + 4 ? i + 2 : j + 1;
            } else {
                break;
            }
        }
        return last == null ? mangled : last;
    }

    /** The index after a literal argument {@code L <type> <number> E} that opens at i. */
    private static int skipLiteral(String m, int i) {
        i++;
        if (i < m.length() && m.charAt(i) == 'N') {
            int depth = 0;
            while (i < m.length()) {
                char c = m.charAt(i);
                if (Character.isDigit(c)) {
                    i = skipSourceName(m, i);
                    continue;
                }
                if (c == 'N') {
                    depth++;
                } else if (c == 'E' && --depth == 0) {
                    i++;
                    break;
                }
                i++;
            }
        } else {
            i++;
        }
        int end = m.indexOf('E', i);
        return end < 0 ? m.length() : end + 1;
    }

    /** The index after a length-prefixed name ({@code 6vector}) that opens at i. */
    private static int skipSourceName(String m, int i) {
        int j = i;
        while (j < m.length() && Character.isDigit(m.charAt(j))) {
            j++;
        }
        return j + (j - i > 6 ? 0 : Integer.parseInt(m.substring(i, j)));
    }

    /** The index after the template-argument list that opens at i ('I' ... the matching 'E'). */
    private static int skipTemplateArguments(String m, int i) {
        int depth = 0;
        while (i < m.length()) {
            char c = m.charAt(i);
            if (Character.isDigit(c)) {
                i = skipSourceName(m, i);
                continue;
            }
            if (c == 'L' && depth > 0) {
                i = skipLiteral(m, i);
                continue;
            }
            if (c == 'I' || c == 'N') {
                depth++;
            } else if (c == 'E' && --depth == 0) {
                return i + 1;
            }
            i++;
        }
        return i;
    }
}
