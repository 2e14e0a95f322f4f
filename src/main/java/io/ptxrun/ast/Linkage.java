package io.ptxrun.ast;

/** Linking directives (PTX ISA 11.6). */
public enum Linkage {
    VISIBLE, EXTERN, WEAK, COMMON;

    public String spelling() {
        return "." + name().toLowerCase();
    }
}
