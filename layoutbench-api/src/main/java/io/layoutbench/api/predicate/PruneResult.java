package io.layoutbench.api.predicate;

/**
 * The answer of statistics-based pruning. Only {@link #ROWS_CANNOT_MATCH} is a promise; {@link #ROWS_MIGHT_MATCH}
 * means "read it and see", and is also the answer whenever the statistics cannot decide.
 *
 * <pre>{@code
 * for (int g = 0; g < groups.size(); g++) {
 *     if (query.prune(groups.get(g)) == PruneResult.ROWS_CANNOT_MATCH) {
 *         continue; // no row of group g satisfies the predicate
 *     }
 *     read(g);
 * }
 * }</pre>
 */
public enum PruneResult {
    /** Some rows of the group may satisfy the predicate (or the statistics are not enough to tell). */
    ROWS_MIGHT_MATCH,
    /** No row of the group satisfies the predicate: it is safe to skip. */
    ROWS_CANNOT_MATCH;

    /** Whether the group can be skipped. */
    public boolean canSkip() {
        return this == ROWS_CANNOT_MATCH;
    }
}
