package io.layoutbench.examples.fac.study;

import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Writes JSON from maps, lists, strings, numbers, booleans and nulls, indented, keys in map order. Enough for the
 * study reports, without a JSON library in the library's dependencies.
 */
public final class Json {

    private Json() {
    }

    /** {@code value} as indented JSON. */
    public static String write(Object value) {
        StringBuilder out = new StringBuilder();
        write(value, out, 0);
        return out.append('\n').toString();
    }

    private static void write(Object value, StringBuilder out, int indent) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof String text) {
            string(text, out);
        } else if (value instanceof Double || value instanceof Float) {
            double d = ((Number) value).doubleValue();
            out.append(Double.isFinite(d) ? String.format(Locale.ROOT, "%.6g", d).replaceAll("(\\.\\d*?)0+(e|$)",
                    "$1$2").replace(".e", "e").replaceAll("\\.$", "") : "null");
        } else if (value instanceof Number || value instanceof Boolean) {
            out.append(value);
        } else if (value instanceof Map<?, ?> map) {
            out.append('{');
            Iterator<? extends Map.Entry<?, ?>> entries = map.entrySet().iterator();
            while (entries.hasNext()) {
                Map.Entry<?, ?> entry = entries.next();
                newline(out, indent + 1);
                string(String.valueOf(entry.getKey()), out);
                out.append(": ");
                write(entry.getValue(), out, indent + 1);
                if (entries.hasNext()) {
                    out.append(',');
                }
            }
            if (!map.isEmpty()) {
                newline(out, indent);
            }
            out.append('}');
        } else if (value instanceof List<?> list) {
            boolean flat = list.stream().allMatch(v -> v == null || v instanceof Number || v instanceof String);
            out.append('[');
            for (int i = 0; i < list.size(); i++) {
                if (!flat) {
                    newline(out, indent + 1);
                }
                write(list.get(i), out, indent + 1);
                if (i + 1 < list.size()) {
                    out.append(flat ? ", " : ",");
                }
            }
            if (!flat && !list.isEmpty()) {
                newline(out, indent);
            }
            out.append(']');
        } else {
            string(value.toString(), out);
        }
    }

    private static void newline(StringBuilder out, int indent) {
        out.append('\n');
        out.append("  ".repeat(indent));
    }

    private static void string(String text, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
