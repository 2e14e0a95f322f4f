package io.ptxrun.exec;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;

/**
 * Device {@code printf} as the CUDA runtime formats it. nvcc turns {@code printf(fmt, ...)} into
 * {@code vprintf(fmt, buffer)}, the arguments packed into a local buffer after the C default
 * promotions, each at an offset aligned to its size: 4 bytes for {@code int}-sized integers and
 * {@code %c}, 8 for {@code %l}/{@code %ll} integers, doubles (every float conversion), strings
 * and pointers. The conversions are C's ({@code d i u x X o c s p f F e E g G a A %}), with flags
 * {@code -+ #0}, a width (also {@code *}), a precision and the length modifiers {@code h hh l ll
 * z j t}. What the H100 does differently from C, and so ptxrun too: the result is the number of
 * arguments used (not of characters), a null string prints {@code (null)}, a null pointer
 * {@code (nil)}, and a {@code .*} precision is not supported: the conversion is printed as
 * written and takes no argument; an {@code hh} conversion is not counted in the result (the H100
 * prints an unrelated value for it; ptxrun prints its argument as C does).
 */
final class PrintfFormat {
    /** Where the packed arguments come from: the bytes at an offset of the buffer, and strings. */
    interface Arguments {
        long read(long offset, int size);

        /** The NUL-terminated string at a generic address. */
        String string(long address);
    }

    static final int MAX_FIELD = 1 << 16;

    private final StringBuilder out = new StringBuilder();
    private int used;

    private PrintfFormat() {}

    /** The text and the count of arguments used. */
    record Result(String text, int arguments) {}

    static Result format(String fmt, Arguments args) {
        PrintfFormat f = new PrintfFormat();
        f.run(fmt, args);
        return new Result(f.out.toString(), f.used);
    }

    private void run(String fmt, Arguments args) {
        long offset = 0;
        int n = fmt.length();
        int i = 0;
        while (i < n) {
            char c = fmt.charAt(i);
            if (c != '%') {
                out.append(c);
                i++;
                continue;
            }
            int start = i++;
            boolean left = false, plus = false, space = false, alt = false, zero = false;
            for (; i < n; i++) {
                char f = fmt.charAt(i);
                if (f == '-') {
                    left = true;
                } else if (f == '+') {
                    plus = true;
                } else if (f == ' ') {
                    space = true;
                } else if (f == '#') {
                    alt = true;
                } else if (f == '0') {
                    zero = true;
                } else {
                    break;
                }
            }
            int width = -1;
            boolean starWidth = false;
            if (i < n && fmt.charAt(i) == '*') {
                starWidth = true;
                i++;
            } else {
                width = digits(fmt, i);
                i = skipDigits(fmt, i);
            }
            int precision = -1;
            boolean starPrecision = false;
            if (i < n && fmt.charAt(i) == '.') {
                i++;
                if (i < n && fmt.charAt(i) == '*') {
                    starPrecision = true;
                    i++;
                } else {
                    precision = Math.max(0, digits(fmt, i));
                    i = skipDigits(fmt, i);
                }
            }
            int length = 0; // 0: int, -1: short, -2: char, 8: long/long long/size_t
            while (i < n && "hlLzjtq".indexOf(fmt.charAt(i)) >= 0) {
                char m = fmt.charAt(i++);
                length = m == 'h' ? (length == -1 ? -2 : -1) : 8;
            }
            if (i >= n) {
                out.append(fmt, start, n);
                break;
            }
            char conv = fmt.charAt(i++);
            if (conv == '%') {
                out.append('%');
                continue;
            }
            if ("diuxXocspfFeEgGaA".indexOf(conv) < 0 || starPrecision) {
                out.append(fmt, start, i);
                continue;
            }
            if (starWidth) {
                offset = align(offset, 4);
                width = Math.max(-MAX_FIELD, Math.min(MAX_FIELD, (int) args.read(offset, 4)));
                offset += 4;
                used++;
                if (width < 0) {
                    left = true;
                    width = -width;
                }
            }
            int size = switch (conv) {
                case 'f', 'F', 'e', 'E', 'g', 'G', 'a', 'A', 's', 'p' -> 8;
                case 'c' -> 4;
                default -> length == 8 ? 8 : 4;
            };
            offset = align(offset, size);
            long raw = args.read(offset, size);
            offset += size;
            if (length != -2) {
                used++;
            }
            String body;
            String sign = "";
            switch (conv) {
                case 'd', 'i' -> {
                    long v = length == 8 ? raw : length == -1 ? (short) raw : length == -2 ? (byte) raw : (int) raw;
                    sign = v < 0 ? "-" : plus ? "+" : space ? " " : "";
                    body = v < 0 ? Long.toUnsignedString(-v) : Long.toString(v);
                    body = integerPrecision(body, precision);
                }
                case 'u', 'x', 'X', 'o' -> {
                    long v = length == 8 ? raw : length == -1 ? raw & 0xffff : length == -2 ? raw & 0xff : raw & 0xffffffffL;
                    body = conv == 'u' ? Long.toUnsignedString(v) : conv == 'o' ? Long.toOctalString(v)
                            : Long.toHexString(v);
                    if (conv == 'X') {
                        body = body.toUpperCase(Locale.ROOT);
                    }
                    body = integerPrecision(body, precision);
                    if (alt && conv == 'o' && !body.startsWith("0")) {
                        body = "0" + body;
                    } else if (alt && v != 0 && conv != 'u' && conv != 'o') {
                        sign = conv == 'x' ? "0x" : "0X";
                    }
                }
                case 'c' -> {
                    body = String.valueOf((char) (raw & 0xff));
                    zero = false;
                }
                case 's' -> {
                    body = raw == 0 ? "(null)" : args.string(raw);
                    if (precision >= 0 && body.length() > precision) {
                        body = body.substring(0, precision);
                    }
                    zero = false;
                }
                case 'p' -> {
                    body = raw == 0 ? "(nil)" : "0x" + Long.toHexString(raw);
                    zero = false;
                }
                default -> {
                    double v = Double.longBitsToDouble(raw);
                    boolean negative = v < 0 || (v == 0 && 1 / v < 0) || (Double.isNaN(v) && raw < 0);
                    sign = negative ? "-" : plus ? "+" : space ? " " : "";
                    body = floating(Math.abs(v), conv, precision, alt);
                    if (!Double.isFinite(v)) {
                        zero = false;
                    }
                }
            }
            pad(sign, body, width, left, zero && !(precision >= 0 && "diuxXo".indexOf(conv) >= 0));
        }
    }

    private void pad(String sign, String body, int width, boolean left, boolean zero) {
        int fill = Math.max(0, width - sign.length() - body.length());
        if (left) {
            out.append(sign).append(body).append(" ".repeat(fill));
        } else if (zero) {
            out.append(sign).append("0".repeat(fill)).append(body);
        } else {
            out.append(" ".repeat(fill)).append(sign).append(body);
        }
    }

    private static String integerPrecision(String digits, int precision) {
        if (precision < 0) {
            return digits;
        }
        if (precision == 0 && digits.equals("0")) {
            return "";
        }
        return digits.length() >= precision ? digits : "0".repeat(precision - digits.length()) + digits;
    }

    /** A non-negative double (or NaN/infinity) in C's %f %e %g %a forms. */
    static String floating(double v, char conv, int precision, boolean alt) {
        boolean upper = Character.isUpperCase(conv);
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            String s = Double.isNaN(v) ? "nan" : "inf";
            return upper ? s.toUpperCase(Locale.ROOT) : s;
        }
        int p = precision < 0 ? 6 : precision;
        String s = switch (Character.toLowerCase(conv)) {
            case 'f' -> fixed(v, p, alt);
            case 'e' -> exponent(v, p, alt);
            case 'g' -> general(v, p == 0 ? 1 : p, alt);
            default -> hex(v, precision);
        };
        return upper ? s.toUpperCase(Locale.ROOT) : s;
    }

    private static String fixed(double v, int p, boolean alt) {
        String s = new BigDecimal(v).setScale(p, RoundingMode.HALF_EVEN).toPlainString();
        return alt && p == 0 ? s + "." : s;
    }

    private static String exponent(double v, int p, boolean alt) {
        int exp = 0;
        String digits;
        if (v == 0) {
            digits = "0".repeat(p + 1);
        } else {
            BigDecimal d = new BigDecimal(v);
            BigDecimal r = d.round(new java.math.MathContext(p + 1, RoundingMode.HALF_EVEN));
            exp = r.precision() - r.scale() - 1;
            digits = r.unscaledValue().abs().toString();
            if (digits.length() < p + 1) {
                digits = digits + "0".repeat(p + 1 - digits.length());
            } else if (digits.length() > p + 1) {
                digits = digits.substring(0, p + 1);
            }
        }
        StringBuilder sb = new StringBuilder().append(digits.charAt(0));
        if (p > 0 || alt) {
            sb.append('.');
        }
        sb.append(digits, 1, digits.length());
        sb.append('e').append(exp < 0 ? '-' : '+');
        int a = Math.abs(exp);
        if (a < 10) {
            sb.append('0');
        }
        return sb.append(a).toString();
    }

    /** %g: %e or %f by the exponent X of the %e form (C11 7.21.6.1), trailing zeros removed unless '#'. */
    private static String general(double v, int p, boolean alt) {
        String e = exponent(v, p - 1, alt);
        int x = Integer.parseInt(e.substring(e.indexOf('e') + 1));
        String s = p > x && x >= -4 ? fixed(v, p - 1 - x, alt) : e;
        if (alt) {
            return s;
        }
        int ePos = s.indexOf('e');
        String mantissa = ePos < 0 ? s : s.substring(0, ePos);
        String tail = ePos < 0 ? "" : s.substring(ePos);
        if (mantissa.indexOf('.') >= 0) {
            mantissa = mantissa.replaceAll("0+$", "");
            if (mantissa.endsWith(".")) {
                mantissa = mantissa.substring(0, mantissa.length() - 1);
            }
        }
        return mantissa + tail;
    }

    /** %a as glibc prints it: 0x1.8p+1, the fewest hex digits without a precision. */
    private static String hex(double v, int precision) {
        if (v == 0) {
            return precision > 0 ? "0x0." + "0".repeat(precision) + "p+0" : "0x0p+0";
        }
        long bits = Double.doubleToRawLongBits(v);
        int exp = (int) ((bits >>> 52) & 0x7ff);
        long mant = bits & 0xfffffffffffffL;
        int lead = 1;
        if (exp == 0) {
            lead = 0;
            exp = -1022;
        } else {
            exp -= 1023;
        }
        String frac = String.format("%013x", mant);
        if (precision >= 0 && precision < 13) {
            BigDecimal scaled = new BigDecimal(java.math.BigInteger.valueOf((long) lead << 52 | mant))
                    .divide(BigDecimal.valueOf(1L << (4 * (13 - precision))), 0, RoundingMode.HALF_EVEN);
            long r = scaled.longValueExact();
            lead = (int) (r >>> (4 * precision));
            long f = r & ((1L << (4 * precision)) - 1);
            frac = precision == 0 ? "" : String.format("%0" + precision + "x", f);
        } else {
            frac = frac.replaceAll("0+$", "");
            if (precision > 13) {
                frac = frac + "0".repeat(precision - frac.length());
            }
        }
        return "0x" + lead + (frac.isEmpty() ? "" : "." + frac) + "p" + (exp < 0 ? "-" : "+") + Math.abs(exp);
    }

    private static long align(long offset, int size) {
        return (offset + size - 1) & -size;
    }

    /** A width or precision; absurd ones are capped so a format cannot exhaust memory. */
    private static int digits(String s, int i) {
        int j = skipDigits(s, i);
        if (j == i) {
            return -1;
        }
        if (j - i > 5) {
            return MAX_FIELD;
        }
        return Math.min(MAX_FIELD, Integer.parseInt(s.substring(i, j)));
    }

    private static int skipDigits(String s, int i) {
        while (i < s.length() && Character.isDigit(s.charAt(i))) {
            i++;
        }
        return i;
    }
}
