package io.layoutbench.api.predicate;

import io.layoutbench.api.predicate.RowSets.Context;
import io.layoutbench.api.predicate.RowSets.IntList;
import io.layoutbench.api.predicate.RowSets.Rows;

import java.util.Arrays;

/**
 * Evaluates a bound predicate over a {@link ColumnarTable} in bulk, producing the ids of matching rows.
 *
 * <p>How it is fast:
 * <ul>
 *   <li>The table is processed in blocks of up to 64K rows (smaller first blocks when there is a LIMIT, so
 *       {@code LIMIT 1} stops early). Within a block, filters pass sorted row-id lists, so AND narrows: each
 *       conjunct only looks at the rows the previous ones kept, and conjuncts run cheapest first.</li>
 *   <li>Comparisons, IN and LIKE of a STRING column against constants are evaluated once per dictionary entry,
 *       then the rows are a loop over int ids: compared with the few passing ids directly, or looked up in a byte
 *       mask when many pass.</li>
 *   <li>A BIGINT column against a BIGINT constant is a range test in a loop over the {@code long[]}.</li>
 *   <li>Anything else (arithmetic, casts, column against column) is computed into primitive vectors of up to 1,024
 *       values at a time (fewer when the call has fewer rows), which stay in the L1 cache.</li>
 *   <li>The innermost loops over whole blocks ({@link Scans}) run on the Java Vector API when the JVM has
 *       {@code jdk.incubator.vector} ({@code --add-modules jdk.incubator.vector}), as plain loops otherwise.</li>
 * </ul>
 *
 * <p>Three-valued logic: a filter is asked for the rows where its predicate is TRUE, or where it is FALSE; rows
 * where it is NULL are in neither. NOT asks its operand the opposite question, so {@code NOT (x > 5)} never
 * selects rows where {@code x} is NULL.
 *
 * <p>Immutable and thread-safe: all per-evaluation state (dictionary masks, vectors, scratch lists) lives in a
 * {@link Context} created by each {@link #select} call.
 *
 * <p>The parts: {@link FilterCompiler} turns the bound expression into a tree of {@link Filter}s (families:
 * {@link LogicalFilters}, {@link DictionaryFilter}, {@link ColumnFilters}, {@link VectorFilters}) and the
 * {@link Kernels} that compute values; {@link RowSets} holds the row-id sets and per-call state they share. This
 * class runs the tree block by block.
 */
final class ColumnarEvaluator {
    private static final int MAX_BLOCK = 1 << 16;
    private static final int FIRST_LIMITED_BLOCK = 1 << 12;

    private final Filter root;
    private final int slotCount;

    ColumnarEvaluator(Expression expression, Binder binder) {
        FilterCompiler compiler = new FilterCompiler(binder);
        this.root = compiler.filter(expression);
        this.slotCount = compiler.slots;
    }

    Selection select(ColumnarTable table, int from, int to, long limit) {
        if (from < 0 || to > table.rowCount() || from > to) {
            throw new IndexOutOfBoundsException("Row range [" + from + ", " + to + ") is outside a table of "
                    + table.rowCount() + " rows");
        }
        if (limit < 0) {
            throw new IllegalArgumentException("limit must not be negative but got " + limit);
        }
        if (limit == 0 || from == to) {
            return Selection.empty();
        }
        Context ctx = new Context(table, slotCount, to - from);
        int block = limit == Long.MAX_VALUE ? MAX_BLOCK : FIRST_LIMITED_BLOCK;
        // Leaves reserve room for every row of a block, so a block's rows go to a scratch list first and the
        // result grows with the matches only.
        IntList matches = new IntList(Math.min(to - from, block));
        IntList out = new IntList(Math.min(to - from, 1024));
        for (int start = from; start < to; ) {
            int size = Math.min(block, to - start);
            matches.size = 0;
            root.select(ctx, Rows.range(start, size), true, matches);
            out.addAll(Rows.of(matches));
            if (out.size >= limit) {
                break;
            }
            start += size;
            block = Math.min(block * 2, MAX_BLOCK);
        }
        int size = (int) Math.min(out.size, limit);
        int[] rows = out.values.length > size + (size >> 2) + 64 ? Arrays.copyOf(out.values, size) : out.values;
        return new Selection(rows, size);
    }
}
