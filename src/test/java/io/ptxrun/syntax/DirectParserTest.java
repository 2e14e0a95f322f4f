package io.ptxrun.syntax;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ptxrun.TestData;
import io.ptxrun.ast.AstDump;
import io.ptxrun.ast.Module;
import io.ptxrun.ast.ModuleItem;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.antlr.v4.runtime.CommonTokenStream;
import org.antlr.v4.runtime.Token;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The DirectParser against the grammar: wherever it takes a module, the generated parser (with
 * AstBuilder) accepts that module without a diagnostic and builds the same AST, positions
 * included; and parseModule, which tries it first, gives what the generated parser alone gives
 * (value and diagnostics) on every module of testdata, every case of the conformance corpus,
 * the edge cases below and damaged copies of real modules.
 */
class DirectParserTest {

    /** The DirectParser's module of text, or null where it leaves the text to the grammar. */
    private static Module direct(String name, String text) {
        CommonTokenStream tokens = new CommonTokenStream(new Tokenizer(text, name));
        tokens.fill();
        return DirectParser.module(name, tokens.getTokens());
    }

    /**
     * The direct parser agrees with the grammar on text, and parseModule with the generated parser
     * alone; true when the direct parser took the text.
     */
    private static boolean agrees(String name, String text) {
        PtxParser.Parsed<Module> grammar = PtxParser.parseModuleInOnePiece(name, text);
        PtxParser.Parsed<Module> parsed = PtxParser.parseModule(name, text);
        if (grammar.diagnostics().stream().anyMatch(d -> d.rule().equals("syntax.nesting"))
                || parsed.diagnostics().stream().anyMatch(d -> d.rule().equals("syntax.nesting"))) {
            return false;
        }
        Module module = direct(name, text);
        if (module != null) {
            assertEquals(List.of(), grammar.diagnostics(), name + ": the direct parser took a module the grammar rejects");
            sameModule(name, grammar.value(), module);
        }
        assertEquals(grammar.diagnostics(), parsed.diagnostics(), name + ": diagnostics");
        if (grammar.value() == null) {
            assertNull(parsed.value(), name);
        } else {
            sameModule(name, grammar.value(), parsed.value());
        }
        return module != null;
    }

    /** The same module; a difference is shown at its first item, dumped with and without positions. */
    private static void sameModule(String name, Module expected, Module actual) {
        assertNotNull(actual, name);
        List<ModuleItem> e = expected.items();
        List<ModuleItem> a = actual.items();
        for (int i = 0; i < Math.min(e.size(), a.size()); i++) {
            if (!e.get(i).equals(a.get(i))) {
                assertEquals(AstDump.dump(e.get(i)), AstDump.dump(a.get(i)), name + ": item " + i);
                assertEquals(e.get(i).toString(), a.get(i).toString(), name + ": item " + i + " (positions)");
            }
        }
        assertEquals(e.size(), a.size(), name + ": items");
        assertEquals(expected, actual, name);
    }

    private static String read(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        if (file.toString().endsWith(".gz")) {
            try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(bytes))) {
                bytes = in.readAllBytes();
            }
        }
        return new String(bytes, StandardCharsets.UTF_8);
    }

    static Stream<Path> ptxFiles() {
        return Stream.concat(TestData.files("", ".ptx").stream(), TestData.files("", ".ptx.gz").stream());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("ptxFiles")
    void agreesWithTheGrammar(Path file) throws IOException {
        agrees(file.toString(), read(file));
    }

    /** The test above is not vacuous: the direct parser takes most compiler output. */
    @Test
    void takesMostCompilerOutput() throws IOException {
        int taken = 0;
        List<Path> files = TestData.files("nvcc", ".ptx");
        for (Path file : files) {
            if (direct(file.toString(), read(file)) != null) {
                taken++;
            }
        }
        assertTrue(files.size() >= 50 && taken * 10 >= files.size() * 6,
                "the direct parser takes " + taken + " of " + files.size() + " nvcc modules");
        assertNotNull(direct("reduce", read(Path.of("testdata/nvcc/reduce.sm_90.ptx"))));
    }

    @Test
    void agreesOnTheConformanceCorpus() throws IOException {
        ObjectMapper json = new ObjectMapper();
        int cases = 0;
        int taken = 0;
        for (Path file : TestData.jsonlFiles("conformance")) {
            for (String line : TestData.lines(file)) {
                JsonNode c = json.readTree(line);
                if (agrees(file + ": " + c.path("id").asText(), c.path("ptx").asText())) {
                    taken++;
                }
                cases++;
            }
        }
        assertTrue(cases >= 1000, "the conformance corpus has its cases: " + cases);
        assertTrue(taken * 2 >= cases, "the direct parser takes " + taken + " of " + cases + " cases");
    }

    private static final String HEAD = ".version 8.7\n.target sm_90a\n.address_size 64\n";

    private static String kernel(String body) {
        return HEAD + ".visible .entry k(.param .u64 .ptr.global.align 16 p, .param .u32 n)\n.maxntid 128, 1, 1\n{\n"
                + ".reg .pred %p<4>;\n.reg .b32 %r<20>;\n.reg .b64 %rd<10>;\n.reg .f32 %f<8>;\n.reg .b32 x, y;\n"
                + body + "\n}\n";
    }

    /** Statements in a kernel: the direct parser takes them and builds the grammar's AST. */
    @ParameterizedTest
    @ValueSource(strings = {
        "ret;",
        "exit; ret;",
        "@%p1 bra $L__BB0_2;\n$L__BB0_2:\nret;",
        "@!%p1 bra L;\nL: ret;",
        "add.s32 %r1, %r2, 1;",
        "add.s32 %r1, %r2, -1;",
        "add.s32 %r1, %r2, - - 1;",
        "add.s32 %r1, %r2, 0x7fffffff;",
        "add.s64 %rd1, %rd2, 0xFFFFFFFFFFFFFFFF;",
        "add.s32 %r1, %r2, 017;",
        "add.s32 %r1, %r2, 0b101;",
        "add.u32 %r1, %r2, 42U;",
        "add.s32 %r1, %r2, 1+2-4;",
        "add.s32 %r1, %r2, !0;",
        "add.s32 %r1, %r2, ~0;",
        "mov.f32 %f1, 0f3F800000;",
        "mov.f32 %f1, 0fBF800000;",
        "mov.f32 %f1, -0f3F800000;",
        "mov.f64 %fd1, 0d3FF0000000000000;",
        "mov.f64 %fd1, -0d3FF0000000000000;",
        "mov.f64 %fd1, 1.5;",
        "mov.f64 %fd1, 1e5;",
        "mov.f64 %fd1, 2.5e-3;",
        "mov.f64 %fd1, -1.0;",
        "neg.s32 %r1, -%r2;",
        "not.pred %p1, !%p2;",
        "mov.u32 %r1, %tid.x;",
        "mov.u32 %r1, %ctaid.y;",
        "mov.u32 %r1, %nctaid.z;",
        "mov.u32 %r1, %laneid;",
        "mov.u32 %r1, %envreg3;",
        "mov.b32 %r1, x;",
        "ld.global.u32 %r1, [%rd1];",
        "ld.global.u32 %r1, [%rd1+16];",
        "ld.global.u32 %r1, [%rd1+-16];",
        "ld.global.u32 %r1, [%rd1-4];",
        "ld.global.u32 %r1, [16];",
        "ld.global.u32 %r1, [p];",
        "ld.global.u32 %r1, [p+8];",
        "ld.global.u32 %r1, [p+8+8];",
        "ld.param.u64 %rd1, [p];",
        "ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1];",
        "ld.global.v2.f32 {%f1, _}, [%rd1];",
        "st.global.v2.u32 [%rd1+8], {%r1, %r2};",
        "mov.b64 {%r1, %r2}, %rd1;",
        "mov.b32 %r1, {x, y};",
        "setp.lt.s32 %p1|%p2, %r1, %r2;",
        "setp.lt.s32 %p1, %r1, %r2;",
        "shfl.sync.bfly.b32 %r1|%p1, %r2, 1, 31, -1;",
        "tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [p, {%f5, %f6}];",
        "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%rd1], [%rd2, {%r1, %r2}], [%rd3];",
        "atom.global.add.u32 _, [%rd1], 1;",
        "{\n.reg .b32 z;\nmov.b32 z, 1;\n}",
        "{ { add.s32 %r1, %r1, 1; } }",
        ".local .align 8 .b8 buf[16];\nmov.u64 %rd1, buf;",
        ".shared .align 16 .b8 smem[1024];\nmov.u32 %r1, smem;",
        ".extern .shared .align 16 .b8 dyn[];",
        ".reg .b32 a, b, c;\nadd.s32 a, b, c;",
        ".reg .v4 .f32 v;",
        "// a comment\nret; /* another */",
        ".pragma \"nounroll\";\nret;",
        ".loc 1 12 5\nret;",
        "bar.sync 0;",
        "barrier.cluster.arrive.release.aligned;",
        "mov.u32 %r1, (%r2);",
        "mov.u32 %r1, (1);",
        "mov.u32 %r1, (-%r2);",
        "mov.u32 %r1, (1+2);",
        "wgmma.fence.sync.aligned;",
    })
    void takesAKernelStatement(String body) {
        String text = kernel(body);
        assertTrue(agrees("<kernel>", text), "the direct parser takes: " + body);
    }

    /** Forms left to the grammar, well-formed or not: the same result either way. */
    @ParameterizedTest
    @ValueSource(strings = {
        "add.s32 %r1, %r2, 2*3;",
        "add.s32 %r1, %r2, (1+2)*3;",
        "add.s32 %r1, %r2, 1<<4;",
        "add.s32 %r1, %r2, (1);",
        "mov.u64 %rd1, generic(p);",
        "mov.u32 %r1, a[1];",
        "mov.u32 %r1, %r2 + 4;",
        "add.s32 %r1, %r2, ~%r3;",
        "add.s32 %r1, %r2 %r3;",
        "add.s32 %r1, %r2,;",
        "add.s32 %r1, %r2, 1",
        "add.s32 %r1, %r2, 99999999999999999999;",
        "frobnicate.u32 %r1;",
        "@%p1 @%p2 bra L;",
        "ld.global.u32 %r1, [%rd1*2];",
        "ld.global.u32 %r1, [1.5];",
        "ld.global.u32 %r1, [%p1|%p2];",
        "setp.lt.s32 %p1|%p2|%p3, %r1, %r2;",
        "mov.f32 %f1, 0f3F80;",
        "{ ret;",
        "ret; }",
        "L: .calltargets f;",
        "proto: .callprototype (.param .b32 r) _ (.param .b32 a);",
        ".reg .b32 %r<99999999999>;",
        ".shared .b8 s[-1];",
        ".reg .s33 z;",
        ".loc 1 2",
        ".loc 1 2 3, function_name $L__info_string0+5\nret;",
        ".loc 1 2 3, inlined_at 1 4 5\nret;",
        "mov.u32 %r1, %tid.w;",
        "mov.u32 %r1, {};",
        "call.uni (%r1), f, (%r2, %r3);",
        "call.uni f, ();",
        "call.uni (%r1), f, (1);",
        "#",
        "mov.u32 %r1, %r2.global;",
        "mov.u32 %r1, %tid.x.y;",
        "ld.global.u32 %r1, [%rd1].x;",
    })
    void agreesOnAKernelStatement(String body) {
        agrees("<kernel>", kernel(body));
    }

    /** Module-level forms. */
    @ParameterizedTest
    @ValueSource(strings = {
        HEAD,
        HEAD + ".global .u32 g;",
        HEAD + ".global .align 4 .u32 g = 5;",
        HEAD + ".global .u32 g[4] = {1, 2, 3, 4};",
        HEAD + ".global .u32 g[2][2] = {{1, 2}, {3, 4}};",
        HEAD + ".global .f32 g = 0f3F800000;",
        HEAD + ".const .align 8 .b8 t[3] = {1, 2, -3};",
        HEAD + ".global .u64 q = g;",
        HEAD + ".global .u64 q = g + 4;",
        HEAD + ".global .u64 q = generic(g);",
        HEAD + ".extern .global .u32 g;",
        HEAD + ".visible .global .u32 g;",
        HEAD + ".weak .global .u32 g;",
        HEAD + ".common .global .u32 g;",
        HEAD + ".extern .func (.param .b32 r) f (.param .b32 a);",
        HEAD + ".func f\n{\nret;\n}",
        HEAD + ".func (.reg .b32 r) f (.reg .b32 a)\n{\nmov.b32 r, a;\nret;\n}",
        HEAD + ".func f ()\n{\nret;\n}",
        HEAD + ".visible .entry k()\n.noreturn\n{\nexit;\n}",
        HEAD + ".entry k (.param .align 64 .b8 t[128]) .reqntid 32 .maxnreg 32 { ret; }",
        HEAD + ".entry k (.param .u64 .ptr.shared.align 8 p) { ret; }",
        HEAD + ".entry k (.param .u64 .ptr p) { ret; }",
        HEAD + ".entry k (.param .b32 x[]) { ret; }",
        HEAD + ".func f (.param .b32 a) .noreturn",
        HEAD + ".func f (.param .b32 a)\n.func g (.param .b32 a) { ret; }",
        HEAD + ".entry k (.reg .v2 .b32 a) { ret; }",
        HEAD + ".entry k (.param .b32) { ret; }",
        HEAD + ".entry k (.param a) { ret; }",
        HEAD + ".entry k (.param .b32 a .b32) { ret; }",
        HEAD + ".entry k (.param .align .b32 a) { ret; }",
        ".version 8.7\n.target sm_90a, texmode_independent\n.address_size 64\n",
        ".version 8.77\n.target sm_90a\n",
        ".version 8\n.target sm_90a\n",
        ".version 7.8\n.target sm_80\n.address_size 32\n",
        HEAD + ".file 1 \"/tmp/x.cu\"\n.file 2 \"/tmp/y.h\", 1700000000, 123\n",
        HEAD + ".pragma \"nounroll\";",
        HEAD + ".section .debug_str { $L__info_string0: .b8 95,0 }",
        HEAD + ".alias a, b;",
        HEAD + ".global .u32",
        HEAD + ".entry k { ret; ",
        HEAD + "}",
        "",
        "// nothing\n",
    })
    void agreesOnAModule(String text) {
        agrees("<module>", text);
    }

    @Test
    void positionsAreTheTokensOwn() {
        String text = HEAD + "\t.visible .entry k()\n{\n\t.reg .b32 %r<2>;\n\t  @!%r1 add.s32   %r1,\t[%r0+4], -1 ;\n}\n";
        assertTrue(agrees("<positions>", text));
    }

    /**
     * Copies of real modules damaged at random (a token dropped, doubled or swapped with its
     * neighbour, or a character changed): whatever the direct parser takes, the grammar takes
     * the same way, and parseModule's diagnostics stay the generated parser's.
     */
    @Property(tries = 300)
    void agreesOnDamagedModules(@ForAll @IntRange(min = 0, max = 1_000_000) int seed) throws IOException {
        List<Path> files = TestData.files("nvcc", ".ptx").stream()
                .filter(f -> !f.toString().contains(".G.") && !f.toString().contains("lineinfo")).toList();
        Random random = new Random(seed);
        Path file = files.get(random.nextInt(files.size()));
        String text = read(file);
        CommonTokenStream stream = new CommonTokenStream(new Tokenizer(text, file.toString()));
        stream.fill();
        List<Token> tokens = new ArrayList<>(stream.getTokens());
        tokens.remove(tokens.size() - 1);
        int k = random.nextInt(tokens.size() - 1);
        int start = tokens.get(k).getStartIndex();
        int stop = tokens.get(k).getStopIndex() + 1;
        String damaged = switch (random.nextInt(4)) {
            case 0 -> text.substring(0, start) + text.substring(stop);
            case 1 -> text.substring(0, stop) + " " + text.substring(start);
            case 2 -> {
                int nextStart = tokens.get(k + 1).getStartIndex();
                int nextStop = tokens.get(k + 1).getStopIndex() + 1;
                yield text.substring(0, start) + text.substring(nextStart, nextStop) + text.substring(stop, nextStart)
                        + text.substring(start, stop) + text.substring(nextStop);
            }
            default -> {
                String chars = "{}[]();,:.@!|+-*%<>=_$0123456789abcfxXdU \n\"";
                int at = start + random.nextInt(stop - start);
                yield text.substring(0, at) + chars.charAt(random.nextInt(chars.length())) + text.substring(at + 1);
            }
        };
        agrees(file + " damaged (seed " + seed + ")", damaged);
    }
}
