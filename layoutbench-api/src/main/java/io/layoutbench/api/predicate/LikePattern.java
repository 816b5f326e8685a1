package io.layoutbench.api.predicate;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A compiled LIKE pattern: {@code %} is any run of characters, {@code _} one character (one UTF-16 code unit, as
 * {@link String} counts). The common shapes (exact, {@code 'abc%'}, {@code '%snake'}, {@code '%abc%'}) use
 * {@link String} methods; the rest a backtracking matcher that is linear for patterns without {@code _} after a
 * {@code %} and O(n*m) at worst. Immutable.
 *
 * <p>{@link #matches(byte[], int, int)} matches well-formed UTF-8 (a dictionary entry) without decoding it, with
 * the same answers: UTF-8 never starts a character inside another, so the literal parts match byte for byte, and
 * {@code _} takes a whole character of one to three bytes. Only a four-byte character (two UTF-16 units) against a
 * pattern with {@code _}, or a pattern holding surrogates, is decoded and matched as a {@code String}.
 */
final class LikePattern {
    private enum Shape { EXACT, PREFIX, SUFFIX, CONTAINS, ANY, GENERAL }

    private final String pattern;
    private final Shape shape;
    /** The literal part used by the fast shapes. */
    private final String literal;
    private final String prefix;
    private final boolean hasUnderscore;
    /** The UTF-8 form of {@link #literal} (fast shapes) or of the whole pattern (GENERAL); null to decode instead. */
    private final byte[] utf8;

    private LikePattern(String pattern) {
        this.pattern = pattern;
        int firstWildcard = indexOfWildcard(pattern, 0);
        this.prefix = firstWildcard < 0 ? pattern : pattern.substring(0, firstWildcard);
        this.hasUnderscore = pattern.indexOf('_') >= 0;
        String trimmed = stripPercents(pattern);
        if (firstWildcard < 0) {
            shape = Shape.EXACT;
            literal = pattern;
        } else if (!hasUnderscore && trimmed.isEmpty()) {
            shape = Shape.ANY;
            literal = "";
        } else if (!hasUnderscore && trimmed.indexOf('%') < 0) {
            boolean leading = pattern.startsWith("%");
            boolean trailing = pattern.endsWith("%");
            shape = leading && trailing ? Shape.CONTAINS : leading ? Shape.SUFFIX : Shape.PREFIX;
            literal = trimmed;
        } else {
            shape = Shape.GENERAL;
            literal = null;
        }
        String matched = shape == Shape.GENERAL ? pattern : literal;
        this.utf8 = Scalars.hasSurrogate(pattern) ? null : matched.getBytes(StandardCharsets.UTF_8);
    }

    static LikePattern compile(String pattern) {
        return new LikePattern(pattern);
    }

    /** The characters before the first wildcard: every match starts with them. */
    String literalPrefix() {
        return prefix;
    }

    /** Whether every non-null string matches ({@code '%'}, {@code '%%'}). */
    boolean matchesEverything() {
        return shape == Shape.ANY;
    }

    /** Whether the pattern is a prefix followed only by {@code %}s, so exactly the strings with that prefix match. */
    boolean isPrefixOnly() {
        return shape == Shape.ANY || shape == Shape.PREFIX;
    }

    /** Whether the pattern has no wildcard, so it matches exactly the string {@link #literalPrefix()}. */
    boolean isExact() {
        return shape == Shape.EXACT;
    }

    /** Whether the well-formed UTF-8 string {@code s[from, to)} matches; the same answer as for the decoded string. */
    boolean matches(byte[] s, int from, int to) {
        if (utf8 == null || (shape == Shape.GENERAL && hasUnderscore && hasFourByteCharacter(s, from, to))) {
            return matches(new String(s, from, to - from, StandardCharsets.UTF_8));
        }
        byte[] p = utf8;
        int length = to - from;
        return switch (shape) {
            case EXACT -> Arrays.equals(s, from, to, p, 0, p.length);
            case PREFIX -> length >= p.length && Arrays.equals(s, from, from + p.length, p, 0, p.length);
            case SUFFIX -> length >= p.length && Arrays.equals(s, to - p.length, to, p, 0, p.length);
            case CONTAINS -> indexOf(s, from, to, p) >= 0;
            case ANY -> true;
            case GENERAL -> matchGeneral(p, s, from, to);
        };
    }

    boolean matches(String s) {
        return switch (shape) {
            case EXACT -> s.equals(literal);
            case PREFIX -> s.startsWith(literal);
            case SUFFIX -> s.endsWith(literal);
            case CONTAINS -> s.contains(literal);
            case ANY -> true;
            case GENERAL -> matchGeneral(pattern, s);
        };
    }

    private static boolean matchGeneral(String p, String s) {
        int si = 0;
        int pi = 0;
        int starP = -1;
        int starS = 0;
        while (si < s.length()) {
            if (pi < p.length() && p.charAt(pi) == '%') {
                // Remember the star and first try matching it against nothing.
                starP = pi++;
                starS = si;
            } else if (pi < p.length() && (p.charAt(pi) == '_' || p.charAt(pi) == s.charAt(si))) {
                pi++;
                si++;
            } else if (starP >= 0) {
                // Mismatch: let the last star absorb one more character and retry after it.
                pi = starP + 1;
                si = ++starS;
            } else {
                return false;
            }
        }
        while (pi < p.length() && p.charAt(pi) == '%') {
            pi++;
        }
        return pi == p.length();
    }

    /** {@link #matchGeneral(String, String)} on UTF-8, where {@code _} and a star's step take a whole character. */
    private static boolean matchGeneral(byte[] p, byte[] s, int from, int to) {
        int si = from;
        int pi = 0;
        int starP = -1;
        int starS = from;
        while (si < to) {
            if (pi < p.length && p[pi] == '%') {
                starP = pi++;
                starS = si;
            } else if (pi < p.length && p[pi] == '_') {
                pi++;
                si += characterLength(s[si]);
            } else if (pi < p.length && p[pi] == s[si]) {
                pi++;
                si++;
            } else if (starP >= 0) {
                pi = starP + 1;
                starS += characterLength(s[starS]);
                si = starS;
            } else {
                return false;
            }
        }
        while (pi < p.length && p[pi] == '%') {
            pi++;
        }
        // A '_' may have taken the last character's bytes past 'to' only in malformed input.
        return pi == p.length && si == to;
    }

    /** Bytes of the UTF-8 character that starts with {@code lead}. */
    private static int characterLength(byte lead) {
        int b = lead & 0xFF;
        return b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
    }

    private static boolean hasFourByteCharacter(byte[] s, int from, int to) {
        for (int i = from; i < to; i++) {
            if ((s[i] & 0xFF) >= 0xF0) {
                return true;
            }
        }
        return false;
    }

    private static int indexOf(byte[] s, int from, int to, byte[] p) {
        if (p.length == 0) {
            return from;
        }
        byte first = p[0];
        for (int i = from, last = to - p.length; i <= last; i++) {
            if (s[i] == first && Arrays.equals(s, i + 1, i + p.length, p, 1, p.length)) {
                return i;
            }
        }
        return -1;
    }

    private static int indexOfWildcard(String p, int from) {
        for (int i = from; i < p.length(); i++) {
            char c = p.charAt(i);
            if (c == '%' || c == '_') {
                return i;
            }
        }
        return -1;
    }

    private static String stripPercents(String p) {
        int start = 0;
        int end = p.length();
        while (start < end && p.charAt(start) == '%') {
            start++;
        }
        while (end > start && p.charAt(end - 1) == '%') {
            end--;
        }
        return p.substring(start, end);
    }

    @Override
    public String toString() {
        return pattern;
    }
}
