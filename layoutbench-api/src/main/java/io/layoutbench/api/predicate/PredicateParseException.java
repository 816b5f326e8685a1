package io.layoutbench.api.predicate;

/**
 * Predicate text could not be parsed, or (when parsed against a schema) does not type-check. The message names the
 * position (1-based), what was expected and what was found, followed by the offending line and a caret:
 *
 * <pre>{@code
 * try {
 *     Query.parse("(width > 5 AND height < 3");
 * } catch (PredicateParseException e) {
 *     e.position();   // 26
 *     e.getMessage(); // Syntax error at column 26: expected ')' to close '(' at column 1 but found end of input
 *                     // (width > 5 AND height < 3
 *                     //                          ^
 * }
 * }</pre>
 */
public class PredicateParseException extends PredicateException {
    private static final long serialVersionUID = 1L;

    /** Longest excerpt of the offending line shown under the message. */
    private static final int EXCERPT_WIDTH = 80;

    private final String sql;
    private final int position;
    private final int line;
    private final int column;
    private final String reason;

    /**
     * @param reason what went wrong, starting with a capital letter, e.g. {@code Syntax error}; the position is
     *               inserted after it
     * @param detail what was expected and found, e.g. {@code expected ')' but found end of input}
     * @param sql    the whole input
     * @param offset 0-based offset of the offending character in {@code sql}; may equal {@code sql.length()}
     */
    PredicateParseException(String reason, String detail, String sql, int offset, Throwable cause) {
        super(format(reason, detail, sql, offset), cause);
        this.sql = sql;
        this.position = offset + 1;
        this.line = lineOf(sql, offset);
        this.column = offset - lineStart(sql, offset) + 1;
        this.reason = reason + ": " + detail;
    }

    /** The 1-based character position in the input where the problem was found. */
    public int position() {
        return position;
    }

    /** The 1-based line of {@link #position()}. */
    public int line() {
        return line;
    }

    /** The 1-based column of {@link #position()} within its line. */
    public int column() {
        return column;
    }

    /** The text that failed to parse. */
    public String sql() {
        return sql;
    }

    /** The message without position and excerpt, e.g. {@code Syntax error: expected ')' but found end of input}. */
    public String reason() {
        return reason;
    }

    private static String format(String reason, String detail, String sql, int offset) {
        int line = lineOf(sql, offset);
        int start = lineStart(sql, offset);
        int column = offset - start + 1;
        String where = sql.indexOf('\n') >= 0 ? "line " + line + ", column " + column : "column " + column;
        int end = sql.indexOf('\n', start);
        String text = sql.substring(start, end < 0 ? sql.length() : end);
        int caret = offset - start;
        // Long lines (a 64 KiB IN list) are cut to a window around the caret so the message stays readable.
        if (text.length() > EXCERPT_WIDTH) {
            int from = Math.max(0, Math.min(caret - EXCERPT_WIDTH / 2, text.length() - EXCERPT_WIDTH));
            int to = Math.min(text.length(), from + EXCERPT_WIDTH);
            String prefix = from > 0 ? "..." : "";
            text = prefix + text.substring(from, to) + (to < text.length() ? "..." : "");
            caret = caret - from + prefix.length();
        }
        return reason + " at " + where + ": " + detail + "\n" + text.replace('\t', ' ') + "\n" + " ".repeat(caret) + "^";
    }

    private static int lineOf(String sql, int offset) {
        int line = 1;
        for (int i = 0; i < offset && i < sql.length(); i++) {
            if (sql.charAt(i) == '\n') {
                line++;
            }
        }
        return line;
    }

    private static int lineStart(String sql, int offset) {
        int newline = sql.lastIndexOf('\n', Math.min(offset, sql.length()) - 1);
        return newline + 1;
    }
}
