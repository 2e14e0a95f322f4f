package io.ptxrun.exec;

import io.ptxrun.ast.Block;
import io.ptxrun.ast.Function;
import io.ptxrun.ast.Initializer;
import io.ptxrun.ast.Module;
import io.ptxrun.ast.ModuleItem;
import io.ptxrun.ast.Operand;
import io.ptxrun.ast.Statement;
import io.ptxrun.ast.VarDecl;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The module's variables laid out before any function is decoded: globals allocated in the
 * launch's memory (with their initial values), constants in one bank, shared variables (module
 * and function scope) at fixed offsets of a CTA's shared memory, the unsized extern ones after
 * the rest. Fills the program's constant bank and shared sizes; gives the decoder each
 * module-scope symbol and each shared variable's offset.
 */
final class ModuleLayout {
    /** Shared memory of one CTA, static and dynamic: the H100's 227 KB (ptxas: 0x38c00 max). */
    static final long MAX_SHARED = io.ptxrun.launch.LaunchFile.MAX_SHARED_BYTES_PER_CTA;
    /** One constant bank: 64 KB (ptxas: "too much global constant data (..., 0x10000 max)"). */
    static final long MAX_CONST = 0x10000;

    private final Module module;
    private final GlobalMemory memory;
    private final Decoder.Program program;
    /** Module-scope symbols: global, constant and shared variables (the decoder adds functions). */
    final Map<String, Decoder.Sym> globals = new HashMap<>();
    /** The offset of every shared variable in a CTA's shared memory. */
    final IdentityHashMap<VarDecl.Declarator, Integer> sharedOffsets = new IdentityHashMap<>();

    ModuleLayout(Module module, GlobalMemory memory, Decoder.Program program) {
        this.module = module;
        this.memory = memory;
        this.program = program;
        layoutShared();
        layoutModuleVariables();
    }

    private void layoutShared() {
        List<VarDecl> decls = new ArrayList<>();
        for (ModuleItem it : module.items()) {
            if (it instanceof VarDecl v && v.space().isShared()) {
                decls.add(v);
            } else if (it instanceof Function f && f.body().isPresent()) {
                collectShared(f.body().get(), decls);
            }
        }
        int off = 0;
        int maxAlign = 16;
        List<VarDecl.Declarator> externs = new ArrayList<>();
        for (VarDecl v : decls) {
            for (VarDecl.Declarator d : v.declarators()) {
                if (v.linkage().contains(io.ptxrun.ast.Linkage.EXTERN) || isUnsized(d)) {
                    externs.add(d);
                    maxAlign = Math.max(maxAlign, v.effectiveAlign());
                    continue;
                }
                off = ParamLayout.alignUp(off, v.effectiveAlign());
                sharedOffsets.put(d, off);
                program.sharedNames.put(off, d.name());
                off += (int) sizeWithin(v, d, off, MAX_SHARED, "shared");
            }
        }
        off = ParamLayout.alignUp(off, maxAlign);
        for (VarDecl.Declarator d : externs) {
            sharedOffsets.put(d, off);
            program.sharedNames.putIfAbsent(off, d.name());
        }
        program.sharedStatic = off;
        program.sharedExternOffset = off;
    }

    private static boolean isUnsized(VarDecl.Declarator d) {
        return d.dims().contains(0L) && d.init() == null;
    }

    private void collectShared(Block b, List<VarDecl> out) {
        for (Statement s : b.statements()) {
            if (s instanceof VarDecl v && v.space().isShared()) {
                out.add(v);
            } else if (s instanceof Block inner) {
                collectShared(inner, out);
            }
        }
    }

    /** The variable's bytes; {@code Long.MAX_VALUE} when that overflows. */
    static long sizeOf(VarDecl v, VarDecl.Declarator d) {
        long n = v.elementBytes();
        for (long dim : d.dims()) {
            long extent = dim == 0 ? Math.max(1, initCount(d.init())) : dim;
            if (extent < 0 || (extent > 0 && n > Long.MAX_VALUE / extent)) {
                return Long.MAX_VALUE;
            }
            n *= extent;
        }
        return n;
    }

    /** The variable's bytes, which must stay within {@code limit} (what one state space can hold). */
    static long sizeWithin(VarDecl v, VarDecl.Declarator d, long used, long limit, String space) {
        long size = sizeOf(v, d);
        if (size > limit - used) {
            throw new Decoder.DecodeError(d.pos(), space + " variable '" + d.name() + "' needs "
                    + (size == Long.MAX_VALUE ? "more than 2^63" : String.valueOf(size)) + " bytes"
                    + (used > 0 ? " after " + used + " already declared" : "") + ", more than the " + limit
                    + " bytes " + space + " memory can hold");
        }
        return size;
    }

    private static long initCount(Initializer init) {
        if (init instanceof Initializer.Braced b) {
            long n = 0;
            for (Initializer e : b.elements()) {
                n += initCount(e);
            }
            return n;
        }
        return init == null ? 0 : 1;
    }

    private void layoutModuleVariables() {
        List<byte[]> constParts = new ArrayList<>();
        int constSize = 0;
        List<Object[]> constInits = new ArrayList<>();
        for (ModuleItem it : module.items()) {
            if (!(it instanceof VarDecl v)) {
                continue;
            }
            for (VarDecl.Declarator d : v.declarators()) {
                switch (v.space()) {
                    case GLOBAL -> {
                        long size = Math.max(1, sizeOf(v, d));
                        long addr;
                        try {
                            addr = memory.allocate(size, Math.max(256, v.effectiveAlign()));
                        } catch (MemoryFault e) {
                            throw new Decoder.DecodeError(d.pos(), "global variable '" + d.name() + "': " + e.getMessage());
                        }
                        globals.put(d.name(), new Decoder.Sym(Decoder.SymKind.GLOBAL, addr, 64));
                        if (d.init() != null) {
                            byte[] bytes = new byte[(int) size];
                            writeInit(bytes, v, d.init());
                            memory.write(addr, bytes);
                        }
                    }
                    case CONST -> {
                        constSize = ParamLayout.alignUp(constSize, v.effectiveAlign());
                        globals.put(d.name(), new Decoder.Sym(Decoder.SymKind.CONST, constSize, 64));
                        constInits.add(new Object[] {v, d, constSize});
                        constSize += (int) sizeWithin(v, d, constSize, MAX_CONST, "constant");
                    }
                    default -> {
                        if (v.space().isShared()) {
                            globals.put(d.name(), new Decoder.Sym(Decoder.SymKind.SHARED, sharedOffsets.get(d), 32));
                        }
                    }
                }
            }
        }
        byte[] bank = new byte[constSize];
        for (Object[] ci : constInits) {
            VarDecl v = (VarDecl) ci[0];
            VarDecl.Declarator d = (VarDecl.Declarator) ci[1];
            if (d.init() != null) {
                byte[] bytes = new byte[(int) sizeOf(v, d)];
                writeInit(bytes, v, d.init());
                System.arraycopy(bytes, 0, bank, (int) ci[2], bytes.length);
            }
        }
        program.constBank = bank;
    }

    /** Writes an initializer's scalars in order, each of the declaration's element type. */
    private void writeInit(byte[] out, VarDecl v, Initializer init) {
        List<Operand> flat = new ArrayList<>();
        flatten(init, flat);
        int w = v.type().bytes();
        for (int i = 0; i < flat.size() && (i + 1) * w <= out.length; i++) {
            Operand o = flat.get(i);
            long bits;
            if (o instanceof Operand.Symbol s) {
                Decoder.Sym sym = globals.get(s.name());
                long base = sym == null ? 0 : sym.value();
                if (sym != null && s.generic()) {
                    base = Decoder.toGeneric(sym.kind(), base);
                }
                bits = base + s.offset();
            } else {
                bits = Decoder.immBits(o, v.type());
            }
            Bytes.put(out, i * w, w, bits);
        }
    }

    private static void flatten(Initializer init, List<Operand> out) {
        if (init instanceof Initializer.Value val) {
            out.add(val.value());
        } else if (init instanceof Initializer.Braced b) {
            for (Initializer e : b.elements()) {
                flatten(e, out);
            }
        }
    }
}
