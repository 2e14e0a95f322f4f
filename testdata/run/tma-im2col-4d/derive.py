# Hand derivation of expected.json from PTX ISA 5.5.4 (im2col mode), independent of ptxrun.
# A base pixel walks the bounding box W fastest: W over [lowerW, W-1+upperW], then H over
# [lowerH, H-1+upperH], then N; the pixel read is base + im2col offsets; a pixel outside the
# tensor reads zeros (oobFill none). Each pixel is one row of channelsPerPixel channels from c.
import json
C, W, H, N = 4, 4, 3, 2
lower, upper, cpp, ppc = (-1, -1), (-1, -1), 4, 16
def A(n, h, w, c): return 48 * n + 16 * h + 4 * w + c
def column(c0, w0, h0, n0, offw, offh):
    out, w, h, n = [], w0, h0, n0
    for _ in range(ppc):
        rw, rh = w + offw, h + offh
        for k in range(cpp):
            inside = 0 <= rw < W and 0 <= rh < H and 0 <= n < N and 0 <= c0 + k < C
            out.append(A(n, rh, rw, c0 + k) if inside else 0)
        w += 1
        if w > W - 1 + upper[0]:
            w = lower[0]; h += 1
            if h > H - 1 + upper[1]:
                h = lower[1]; n += 1
    return out
values = column(0, -1, -1, 0, 1, 2) + column(0, 1, 0, 1, 0, 0) + [1]
print(json.dumps({"kernel": "tma_im2col_4d", "status": "ok",
                  "buffers": {"out": {"type": "u32", "values": values}}}, indent=1))
