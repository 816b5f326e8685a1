package io.layoutbench.datasets.ingest;

import io.layoutbench.api.dataset.ColumnType;

import java.math.BigInteger;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The values of manifest cells: what type each suggests (for an inferred schema) and the value it is in a column of
 * a given type. A cell is null (NULL), a {@link String} (CSV text, a JSON string, a Parquet UTF-8 value), a
 * {@link Long} or {@link BigInteger} (an integer), a {@link Double} or a {@link Boolean}.
 *
 * <p>Text is parsed strictly, so that a column is not taken for numbers on the strength of Java's lenient parsers:
 * an integer is {@code [+-]?[0-9]+}, a number also takes a decimal point and an exponent ({@code -1.5e3},
 * {@code .5}); {@code NaN}, {@code Infinity}, hexadecimal and {@code 1,000} are text. A boolean is {@code true} or
 * {@code false}, ignoring case. Surrounding white space is ignored when text is read as a number or a boolean, and
 * blank text is NULL in a column of those types.
 */
final class ManifestValues {

    private static final Pattern INTEGER = Pattern.compile("[+-]?[0-9]+");
    private static final Pattern NUMBER = Pattern.compile("[+-]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][+-]?[0-9]+)?");

    private ManifestValues() {
    }

    /** Why a cell is not a value of a column's type: "'abc' is not a whole number". */
    static final class BadValue extends Exception {
        private static final long serialVersionUID = 1L;

        BadValue(String reason) {
            super(reason, null, false, false);
        }
    }

    /**
     * The type a cell suggests, or null for NULL. Text from a format without types (CSV) is classified by its
     * content; text from a typed format (a JSON string, a Parquet UTF-8 value) is a STRING whatever it holds.
     */
    static ColumnType typeOf(Object cell, boolean typedText) {
        if (cell == null) {
            return null;
        }
        if (cell instanceof String text) {
            return typedText ? ColumnType.STRING : classify(text);
        }
        if (cell instanceof Long) {
            return ColumnType.BIGINT;
        }
        if (cell instanceof Number) {
            return ColumnType.DOUBLE;   // a BigInteger does not fit a BIGINT
        }
        if (cell instanceof Boolean) {
            return ColumnType.BOOLEAN;
        }
        throw new IllegalArgumentException("Not a manifest cell: " + cell.getClass().getName());
    }

    /** The narrowest type that holds values of both types (null is no type yet): BIGINT and DOUBLE make DOUBLE. */
    static ColumnType merge(ColumnType seen, ColumnType next) {
        if (seen == null || seen == next) {
            return next;
        }
        if (next == null) {
            return seen;
        }
        if (seen.isNumeric() && next.isNumeric()) {
            return ColumnType.DOUBLE;
        }
        return ColumnType.STRING;
    }

    /**
     * The value of {@code cell} in a column of {@code type}: null for NULL.
     *
     * @throws BadValue saying why the cell is no such value
     */
    static Object convert(Object cell, ColumnType type) throws BadValue {
        if (cell == null) {
            return null;
        }
        if (type == ColumnType.STRING) {
            return cell instanceof String text ? text : String.valueOf(cell);
        }
        if (cell instanceof String text) {
            return parse(text.strip(), type);
        }
        switch (type) {
            case BIGINT:
                if (cell instanceof Long) {
                    return cell;
                }
                if (cell instanceof BigInteger) {
                    throw new BadValue(cell + " is out of the range of a bigint");
                }
                throw new BadValue(describe(cell) + " is not a whole number");
            case DOUBLE:
                if (cell instanceof Number number) {
                    return number.doubleValue();
                }
                throw new BadValue(describe(cell) + " is not a number");
            case BOOLEAN:
                if (cell instanceof Boolean) {
                    return cell;
                }
                throw new BadValue(describe(cell) + " is not true or false");
            default:
                throw new IllegalArgumentException("Unknown type " + type);
        }
    }

    private static Object parse(String text, ColumnType type) throws BadValue {
        if (text.isEmpty()) {
            return null;
        }
        switch (type) {
            case BIGINT:
                if (!INTEGER.matcher(text).matches()) {
                    throw new BadValue("'" + text + "' is not a whole number");
                }
                try {
                    return Long.parseLong(text);
                } catch (NumberFormatException e) {
                    throw new BadValue("'" + text + "' is out of the range of a bigint");
                }
            case DOUBLE:
                Double number = number(text);
                if (number == null) {
                    throw new BadValue("'" + text + "' is not a number");
                }
                return number;
            case BOOLEAN:
                if (text.equalsIgnoreCase("true")) {
                    return Boolean.TRUE;
                }
                if (text.equalsIgnoreCase("false")) {
                    return Boolean.FALSE;
                }
                throw new BadValue("'" + text + "' is not true or false");
            default:
                throw new IllegalArgumentException("Unknown type " + type);
        }
    }

    private static ColumnType classify(String text) {
        String stripped = text.strip();
        if (stripped.isEmpty()) {
            return null;
        }
        if (INTEGER.matcher(stripped).matches()) {
            try {
                Long.parseLong(stripped);
                return ColumnType.BIGINT;
            } catch (NumberFormatException e) {
                return ColumnType.DOUBLE;   // too long for a bigint
            }
        }
        if (number(stripped) != null) {
            return ColumnType.DOUBLE;
        }
        String lower = stripped.toLowerCase(Locale.ROOT);
        return lower.equals("true") || lower.equals("false") ? ColumnType.BOOLEAN : ColumnType.STRING;
    }

    /** The finite number {@code text} spells, or null. */
    private static Double number(String text) {
        if (!NUMBER.matcher(text).matches()) {
            return null;
        }
        double value = Double.parseDouble(text);
        return Double.isFinite(value) ? value : null;
    }

    private static String describe(Object cell) {
        return cell instanceof Boolean ? String.valueOf(cell) : cell + " (a " + kind(cell) + ")";
    }

    private static String kind(Object cell) {
        if (cell instanceof Long || cell instanceof BigInteger) {
            return "whole number";
        }
        return cell instanceof Double ? "number" : cell.getClass().getSimpleName();
    }
}
