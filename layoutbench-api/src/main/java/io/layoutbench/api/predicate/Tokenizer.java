package io.layoutbench.api.predicate;

import io.layoutbench.api.predicate.Token.Type;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits predicate or statement text into {@link Token}s, ending with one {@link Type#END} token. Comments are
 * skipped like blanks.
 */
final class Tokenizer {
    private final String sql;
    private int pos;

    private Tokenizer(String sql) {
        this.sql = sql;
    }

    static List<Token> tokenize(String sql) {
        return new Tokenizer(sql).run();
    }

    private List<Token> run() {
        List<Token> tokens = new ArrayList<>();
        // "End of input" is reported just after the last token, not on trailing blank lines or comments.
        int lastTokenEnd = 0;
        while (true) {
            skipWhitespaceAndComments();
            if (pos >= sql.length()) {
                tokens.add(new Token(Type.END, "", lastTokenEnd));
                return tokens;
            }
            tokens.add(next());
            lastTokenEnd = pos;
        }
    }

    /**
     * Skips blanks and SQL comments, as DuckDB (PostgreSQL's lexer) reads them: {@code --} to the end of the line,
     * and {@code /* ... *}{@code /}, which may nest. A minus followed by a space and a minus ({@code - -1}) stays
     * arithmetic; {@code --1} is a comment.
     */
    private void skipWhitespaceAndComments() {
        while (pos < sql.length()) {
            char c = sql.charAt(pos);
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f') {
                pos++;
            } else if (startsWith("--")) {
                while (pos < sql.length() && sql.charAt(pos) != '\n' && sql.charAt(pos) != '\r') {
                    pos++;
                }
            } else if (startsWith("/*")) {
                blockComment();
            } else {
                return;
            }
        }
    }

    private void blockComment() {
        int start = pos;
        int depth = 0;
        boolean nested = false;
        while (pos < sql.length()) {
            if (startsWith("/*")) {
                nested |= depth > 0;
                depth++;
                pos += 2;
            } else if (startsWith("*/")) {
                pos += 2;
                if (--depth == 0) {
                    return;
                }
            } else {
                pos++;
            }
        }
        // Reported at the opening "/*": that is where the unfinished comment starts.
        throw error("Unterminated comment", "expected a closing */ but found end of input"
                + (nested ? " (comments nest: each /* inside a comment needs its own */)" : ""), start);
    }

    private boolean startsWith(String s) {
        return sql.startsWith(s, pos);
    }

    private Token next() {
        int start = pos;
        char c = sql.charAt(pos);
        if (isIdentifierStart(c)) {
            while (pos < sql.length() && isIdentifierPart(sql.charAt(pos))) {
                pos++;
            }
            return new Token(Type.WORD, sql.substring(start, pos), start);
        } else if (isDigit(c) || (c == '.' && pos + 1 < sql.length() && isDigit(sql.charAt(pos + 1)))) {
            return number(start);
        } else if (c == '\'') {
            return new Token(Type.STRING, quoted('\'', "string literal", "'"), start);
        } else if (c == '"') {
            String name = quoted('"', "quoted identifier", "\"");
            if (name.isEmpty()) {
                throw error("Syntax error", "expected a column name between the double quotes but found \"\"",
                        start);
            }
            return new Token(Type.QUOTED_IDENTIFIER, name, start);
        }
        pos++;
        switch (c) {
            case '(', ')', ',', ';', '+', '-', '*', '/', '=':
                return new Token(Type.SYMBOL, String.valueOf(c), start);
            case '<':
                if (pos < sql.length() && (sql.charAt(pos) == '=' || sql.charAt(pos) == '>')) {
                    pos++;
                }
                return new Token(Type.SYMBOL, sql.substring(start, pos), start);
            case '>':
                if (pos < sql.length() && sql.charAt(pos) == '=') {
                    pos++;
                }
                return new Token(Type.SYMBOL, sql.substring(start, pos), start);
            case '!':
                if (pos < sql.length() && sql.charAt(pos) == '=') {
                    pos++;
                    return new Token(Type.SYMBOL, "!=", start);
                }
                throw error("Syntax error", "expected '!=' but found '!' alone", start);
            default:
                throw error("Syntax error", "expected a column, literal, operator or parenthesis but found "
                        + describeChar(c), start);
        }
    }

    private Token number(int start) {
        boolean decimal = false;
        while (pos < sql.length() && isDigit(sql.charAt(pos))) {
            pos++;
        }
        if (pos < sql.length() && sql.charAt(pos) == '.') {
            decimal = true;
            pos++;
            while (pos < sql.length() && isDigit(sql.charAt(pos))) {
                pos++;
            }
        }
        if (pos < sql.length() && (sql.charAt(pos) == 'e' || sql.charAt(pos) == 'E')) {
            int exponent = pos;
            pos++;
            if (pos < sql.length() && (sql.charAt(pos) == '+' || sql.charAt(pos) == '-')) {
                pos++;
            }
            if (pos >= sql.length() || !isDigit(sql.charAt(pos))) {
                throw error("Syntax error", "expected digits after the exponent of "
                        + sql.substring(start, exponent + 1) + " but found "
                        + (pos >= sql.length() ? "end of input" : describeChar(sql.charAt(pos))), pos);
            }
            while (pos < sql.length() && isDigit(sql.charAt(pos))) {
                pos++;
            }
            decimal = true;
        }
        String text = sql.substring(start, pos);
        if (pos < sql.length() && (isIdentifierPart(sql.charAt(pos)) || sql.charAt(pos) == '.')) {
            // "500KB" or "1.2.3": almost certainly a typo, not a number followed by a column.
            throw error("Syntax error", "expected an operator or a space after the number " + text
                    + " but found " + describeChar(sql.charAt(pos)), pos);
        }
        if (decimal && Double.isInfinite(Double.parseDouble(text))) {
            throw error("Number out of range", text + " is too large for a DOUBLE", start);
        }
        return new Token(decimal ? Type.DECIMAL : Type.INTEGER, text, start);
    }

    /** Reads a {@code quote}-delimited token, where a doubled quote stands for one. */
    private String quoted(char quote, String what, String quoteText) {
        int start = pos;
        pos++;
        StringBuilder value = new StringBuilder();
        while (pos < sql.length()) {
            char c = sql.charAt(pos++);
            if (c == quote) {
                if (pos < sql.length() && sql.charAt(pos) == quote) {
                    value.append(quote);
                    pos++;
                } else {
                    return value.toString();
                }
            } else {
                value.append(c);
            }
        }
        // Reported at the opening quote: that is where the unfinished token starts.
        throw error("Unterminated " + what, "expected a closing " + quoteText + " but found end of input", start);
    }

    private PredicateParseException error(String reason, String detail, int offset) {
        return new PredicateParseException(reason, detail, sql, offset, null);
    }

    private static String describeChar(char c) {
        return Character.isISOControl(c) || Character.isWhitespace(c)
                ? String.format("character U+%04X", (int) c) : "'" + c + "'";
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isIdentifierStart(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    }

    private static boolean isIdentifierPart(char c) {
        return isIdentifierStart(c) || isDigit(c);
    }
}
