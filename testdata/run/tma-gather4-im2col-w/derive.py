# Hand derivation of expected.json (PTX ISA 5.5.3, 5.5.5, 9.7.9.25.5.2), independent of ptxrun.
import json
W_G = 16
def G(y, x): return 16 * y + x
# gather4: four rows (col .. col + box[0] - 1, row_r); rows outside the tensor read zeros.
col, rows, box0 = 4, [1, 6, 3, 9], 8
gather = [G(r, col + k) if 0 <= r < 8 and 0 <= col + k < 16 else 0 for r in rows for k in range(box0)]
# scatter4: shared row r goes to (col .. col + 7, row_r) of S.
S = [0] * 128
for i, r in enumerate([0, 2, 4, 7]):
    for k in range(8):
        S[r * 16 + 8 + k] = gather[i * 8 + k]
# im2col::w: pixels w = 2 + wOffset(3) .. of image n = 1, pixelsPerColumn(4) + wHalo(2) of them,
# each 8 channels (32 bytes, one row per 32B swizzle span), X[n][w][c] = 96 n + 8 w + c.
rows_w = [[96 * 1 + 8 * w + c for c in range(8)] for w in range(5, 11)]
linear = [v for row in rows_w for v in row]            # 48 u32, unswizzled
# 32B swizzle of a 1024-aligned buffer: byte a goes to a ^ (((a >> 7) & 1) << 4) (16-byte chunks).
smem = [None] * 48
for i, v in enumerate(linear):
    a = 4 * i
    smem[(a ^ (((a >> 7) & 1) << 4)) // 4] = v
out = gather + smem + [1]
print(json.dumps({"kernel": "tma_gather4_im2col_w", "status": "ok",
                  "buffers": {"out": {"type": "u32", "values": out}, "S": {"type": "u32", "values": S}}}, indent=1))
