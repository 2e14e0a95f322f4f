package io.ptxrun.ast;

import java.util.List;

/** What can stand at the top level of a module (PTX ISA 11.1, 11.2, 11.6). */
public sealed interface ModuleItem extends Node
        permits ModuleItem.Version, ModuleItem.Target, ModuleItem.AddressSize, ModuleItem.FileDecl,
                ModuleItem.Section, ModuleItem.Alias, Pragma, VarDecl, Function {

    /** `.version 8.7`. */
    record Version(SourcePos pos, int major, int minor) implements ModuleItem {
        public int asInt() {
            return major * 10 + minor;
        }

        @Override
        public String toString() {
            return major + "." + minor;
        }
    }

    /** `.target sm_90a, texmode_independent, debug`: the first entry is the architecture. */
    record Target(SourcePos pos, List<String> names) implements ModuleItem {
        public Target {
            names = List.copyOf(names);
        }
    }

    /** `.address_size 64`. */
    record AddressSize(SourcePos pos, int bits) implements ModuleItem {}

    /** `.file 1 "a.cu"` with optional timestamp and size. */
    record FileDecl(SourcePos pos, int index, String path, List<Long> extra) implements ModuleItem {
        public FileDecl {
            extra = List.copyOf(extra);
        }
    }

    /** `.section .debug_info { ... }`: debug data, kept for printing, not interpreted. */
    record Section(SourcePos pos, String name, List<SectionEntry> entries) implements ModuleItem {
        public Section {
            entries = List.copyOf(entries);
        }
    }

    /** One line of a debug section. */
    sealed interface SectionEntry permits SectionData, SectionLabel, DwarfLine {}

    /** `.b8 1, 2, 3` or `.b32 .debug_abbrev`: values are operands or section names. */
    record SectionData(String width, List<Object> values) implements SectionEntry {
        public SectionData {
            values = List.copyOf(values);
        }
    }

    record SectionLabel(String name) implements SectionEntry {}

    record DwarfLine(String text) implements SectionEntry {}

    /** `.alias fAlias, fBody;`. */
    record Alias(SourcePos pos, String alias, String aliasee) implements ModuleItem {}
}
