package io.layoutbench.fusion.pushdown;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.predicate.ColumnarTable;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/**
 * A query's answer and how it was obtained.
 *
 * <pre>{@code
 * PushdownResult result = engine.execute(key, "SELECT l_tax FROM lineitem WHERE l_quantity < 2", PushdownMode.FUSION);
 * ColumnarTable rows = result.rows();
 * double firstTax = rows.getDouble(0, 0);
 * }</pre>
 *
 * @param query  the query as parsed
 * @param labels the SELECT items as written ({@code l_tax}, {@code SUM(l_tax)}), one per column of {@code rows}
 * @param rows     the selected values in file order (or in ORDER BY order), one row of aggregates, or one row per
 *                 group in ascending order of the GROUP BY keys (NULLs last) unless ORDER BY says otherwise; DATE
 *                 columns as ISO strings, integer columns as BIGINT, DECIMAL columns as the nearest DOUBLE (exactly
 *                 in {@code decimals}); aggregate columns are named {@code sum_l_tax}, {@code count_star},
 *                 {@code sum_expr} (arithmetic) and so on
 * @param report   what crossed the network and what it cost
 * @param decimals the exact values of the DECIMAL columns of {@code rows} (DECIMAL columns, their SUM, MIN and MAX,
 *                 exact arithmetic on them), by column index, row by row, null where NULL; see {@link #exact}
 */
public record PushdownResult(SelectQuery query, List<String> labels, ColumnarTable rows, PushdownReport report,
        Map<Integer, List<BigDecimal>> decimals) {

    public PushdownResult {
        requireNonNull(query, "query is null");
        labels = List.copyOf(labels);
        requireNonNull(rows, "rows is null");
        requireNonNull(report, "report is null");
        decimals = Map.copyOf(decimals);
    }

    /** A result without DECIMAL columns. */
    public PushdownResult(SelectQuery query, List<String> labels, ColumnarTable rows, PushdownReport report) {
        this(query, labels, rows, report, Map.of());
    }

    /**
     * The value at {@code row} of {@code column}, exactly: a {@link BigDecimal} for a DECIMAL column, as
     * {@code rows().get(column, row)} otherwise; null where NULL.
     *
     * <pre>{@code
     * BigDecimal revenue = (BigDecimal) result.exact(0, 0);   // SUM(l_extendedprice * l_discount), to the cent
     * }</pre>
     */
    public Object exact(int column, int row) {
        List<BigDecimal> exact = decimals.get(column);
        return exact != null ? exact.get(row) : rows.get(column, row);
    }
}
