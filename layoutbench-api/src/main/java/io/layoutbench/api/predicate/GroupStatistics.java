package io.layoutbench.api.predicate;

import static java.util.Objects.requireNonNull;

import java.util.HashMap;
import java.util.Map;

/**
 * Statistics of a row group or page: its row count and, per column (by name or alias), a
 * {@link ColumnStatistics}. Columns without an entry are unknown. Build them from Parquet footers, or with
 * {@link ColumnarTable#statistics(int, int)}.
 *
 * <pre>{@code
 * GroupStatistics group = new GroupStatistics(10_000, Map.of(
 *         "width", ColumnStatistics.of(64L, 2048L, 0),
 *         "label", ColumnStatistics.of("abacus", "zucchini", 0)));
 * PruneResult r = bound.prune(group);
 * }</pre>
 *
 * @param rowCount rows in the group, NULL rows included
 * @param columns  statistics by column name or alias
 */
public record GroupStatistics(long rowCount, Map<String, ColumnStatistics> columns) {

    public GroupStatistics {
        if (rowCount < 0) {
            throw new IllegalArgumentException("rowCount must not be negative but got " + rowCount);
        }
        columns = Map.copyOf(requireNonNull(columns, "columns is null"));
        for (Map.Entry<String, ColumnStatistics> entry : columns.entrySet()) {
            long nulls = entry.getValue().nullCount();
            if (nulls > rowCount) {
                throw new IllegalArgumentException("Column '" + entry.getKey() + "' has " + nulls
                        + " NULLs in a group of " + rowCount + " rows");
            }
        }
    }

    /** These statistics with {@code column}'s entry set to {@code statistics}. */
    public GroupStatistics with(String column, ColumnStatistics statistics) {
        Map<String, ColumnStatistics> more = new HashMap<>(columns);
        more.put(requireNonNull(column, "column is null"), requireNonNull(statistics, "statistics is null"));
        return new GroupStatistics(rowCount, more);
    }
}
