package io.layoutbench.fusion.pushdown;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.predicate.ColumnarTable;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.stream.IntStream;

/**
 * A query's result as the coordinator assembles it: the rows, and the exact values of its DECIMAL columns (the
 * table holds their nearest doubles). ORDER BY and LIMIT apply to it here, at the coordinator: the result of an
 * aggregate is small, and a projection's is what the client receives anyway.
 *
 * @param table    the rows
 * @param decimals per DECIMAL column (by index), its exact values row by row, null where NULL
 */
record ResultTable(ColumnarTable table, Map<Integer, List<BigDecimal>> decimals) {

    ResultTable {
        requireNonNull(table, "table is null");
        decimals = Map.copyOf(decimals);
    }

    /**
     * The rows in the order of {@code keys} (stable: rows equal on every key keep their order), NULLs last whichever
     * the direction, as DuckDB orders them by default; then the first {@code limit} of them.
     */
    ResultTable ordered(List<SelectQuery.SortKey> keys, OptionalLong limit) {
        int rows = table.rowCount();
        if (keys.isEmpty() && (limit.isEmpty() || limit.getAsLong() >= rows)) {
            return this;
        }
        Comparator<Integer> order = (a, b) -> 0;
        for (SelectQuery.SortKey key : keys) {
            order = order.thenComparing((a, b) -> {
                Object x = value(key.item(), a);
                Object y = value(key.item(), b);
                if (x == null || y == null) {
                    return compareNullsLast(x, y);
                }
                int c = compareNullsLast(x, y);
                return key.descending() ? -c : c;
            });
        }
        List<Integer> picked = new ArrayList<>(IntStream.range(0, rows).boxed().toList());
        picked.sort(order);
        int kept = (int) Math.min(rows, limit.orElse(rows));
        picked = picked.subList(0, kept);
        ColumnarTable.Builder sorted = ColumnarTable.builder(table.schema(), kept);
        Map<Integer, List<BigDecimal>> exact = new HashMap<>();
        decimals.keySet().forEach(c -> exact.put(c, new ArrayList<>()));
        for (int row : picked) {
            Object[] values = new Object[table.schema().size()];
            for (int c = 0; c < values.length; c++) {
                values[c] = table.get(c, row);
            }
            sorted.add(values);
            exact.forEach((c, list) -> list.add(decimals.get(c).get(row)));
        }
        exact.replaceAll((c, list) -> Collections.unmodifiableList(list));
        return new ResultTable(sorted.build(), exact);
    }

    /** The value of a column at a row: exact for a DECIMAL column. */
    private Object value(int column, int row) {
        List<BigDecimal> exact = decimals.get(column);
        return exact != null ? exact.get(row) : table.get(column, row);
    }

    /** Compares two values of one column (Long, Double, String, Boolean or BigDecimal), NULL after any value. */
    @SuppressWarnings("unchecked")
    static int compareNullsLast(Object a, Object b) {
        if (a == null || b == null) {
            return a == null ? (b == null ? 0 : 1) : -1;
        }
        return ((Comparable<Object>) a).compareTo(b);
    }
}
