package io.layoutbench.api.predicate;

/**
 * A compiled LIKE pattern: {@code %} is any run of characters, {@code _} one character. The common shapes (exact,
 * {@code 'abc%'}, {@code '%snake'}, {@code '%abc%'}) use {@link String} methods; the rest a backtracking matcher
 * that is linear for patterns without {@code _} after a {@code %} and O(n*m) at worst. Immutable.
 */
final class LikePattern {
    private enum Shape { EXACT, PREFIX, SUFFIX, CONTAINS, ANY, GENERAL }

    private final String pattern;
    private final Shape shape;
    /** The literal part used by the fast shapes. */
    private final String literal;
    private final String prefix;

    private LikePattern(String pattern) {
        this.pattern = pattern;
        int firstWildcard = indexOfWildcard(pattern, 0);
        this.prefix = firstWildcard < 0 ? pattern : pattern.substring(0, firstWildcard);
        boolean hasUnderscore = pattern.indexOf('_') >= 0;
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
