package io.layoutbench.api.predicate;

import io.layoutbench.api.predicate.RowSets.Context;
import io.layoutbench.api.predicate.RowSets.IntList;
import io.layoutbench.api.predicate.RowSets.Rows;

/**
 * A predicate compiled for {@link ColumnarEvaluator}: it selects rows. Three-valued logic: a filter is asked for the
 * rows where its predicate is TRUE, or where it is FALSE; rows where it is NULL are in neither. Immutable; per-call
 * state lives in the {@link Context}.
 */
abstract class Filter {
    /** Appends, in order, the rows of {@code in} where the predicate is {@code want} (never the NULL rows). */
    abstract void select(Context ctx, Rows in, boolean want, IntList out);

    /** Rough relative cost per row, to run cheap conjuncts first. */
    abstract int cost();
}
