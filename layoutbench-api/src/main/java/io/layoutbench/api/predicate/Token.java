package io.layoutbench.api.predicate;

import java.util.Locale;

/**
 * A lexical token of predicate or statement text.
 *
 * @param type  what kind of token
 * @param text  the characters as written (without quotes for {@link Type#STRING} and
 *              {@link Type#QUOTED_IDENTIFIER}, with {@code ''} / {@code ""} unescaped)
 * @param start 0-based offset of the first character
 */
record Token(Type type, String text, int start) {

    enum Type {
        /** An unquoted identifier or keyword; keywords are recognized by the parser, ignoring case. */
        WORD,
        /** A double-quoted identifier, never a keyword. */
        QUOTED_IDENTIFIER,
        /** A single-quoted string literal. */
        STRING,
        /** Digits only. */
        INTEGER,
        /** A number with a decimal point or an exponent. */
        DECIMAL,
        /** An operator or punctuation: {@code ( ) , ; + - * / = <> != < <= > >=}. */
        SYMBOL,
        END
    }

    boolean isKeyword(String keyword) {
        return type == Type.WORD && text.equalsIgnoreCase(keyword);
    }

    boolean isSymbol(String symbol) {
        return type == Type.SYMBOL && text.equals(symbol);
    }

    /** How error messages name this token: {@code keyword AND}, {@code string 'abc'}, {@code end of input}. */
    String describe() {
        return switch (type) {
            case WORD -> SqlPrinter.isKeyword(text) ? "keyword " + text.toUpperCase(Locale.ROOT) : "identifier " + text;
            case QUOTED_IDENTIFIER -> "identifier \"" + text + "\"";
            case STRING -> "string " + shorten(SqlPrinter.quote(text));
            case INTEGER -> "integer " + shorten(text);
            case DECIMAL -> "number " + shorten(text);
            case SYMBOL -> "'" + text + "'";
            case END -> "end of input";
        };
    }

    private static String shorten(String s) {
        return s.length() <= 40 ? s : s.substring(0, 37) + "...";
    }
}
