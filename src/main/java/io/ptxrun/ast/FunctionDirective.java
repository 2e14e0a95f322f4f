package io.ptxrun.ast;

import java.util.List;

/** `.maxntid 256, 1, 1`, `.reqnctapercluster 2`, `.noreturn`, ... (PTX ISA 11.4, 11.5). */
public record FunctionDirective(SourcePos pos, Kind kind, String spelling, List<Long> values) implements Node {
    public FunctionDirective {
        values = List.copyOf(values);
    }

    public enum Kind {
        MAXNTID(".maxntid"), REQNTID(".reqntid"), MINNCTAPERSM(".minnctapersm"), MAXNREG(".maxnreg"),
        MAXNCTAPERSM(".maxnctapersm"), REQNCTAPERCLUSTER(".reqnctapercluster"),
        EXPLICITCLUSTER(".explicitcluster"), MAXCLUSTERRANK(".maxclusterrank"),
        BLOCKSARECLUSTERS(".blocksareclusters"), NORETURN(".noreturn"), ABI_PRESERVE(".abi_preserve"),
        ABI_PRESERVE_CONTROL(".abi_preserve_control"), PRAGMA(".pragma"),
        /** A directive this front-end does not know; the validator reports it. */
        UNKNOWN("");

        public final String spelling;

        Kind(String spelling) {
            this.spelling = spelling;
        }

        public static Kind of(String spelling) {
            for (Kind k : values()) {
                if (k.spelling.equals(spelling)) {
                    return k;
                }
            }
            return UNKNOWN;
        }
    }
}
