package io.layoutbench.api.predicate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.layoutbench.api.dataset.MetadataRow;
import io.layoutbench.api.dataset.MetadataSchema;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

/**
 * Random predicates over random tables: the columnar evaluator, statistics pruning and the printer/parser must agree
 * with the row evaluator, which is the reference. Each case derives from a printed seed, so a failure can be
 * replayed with {@link #replay}.
 */
class PredicatePropertyTest {
    private static final long BASE_SEED = 0x1a5e7be9c4L;
    private static final int CASES = 10_000;

    @Test
    void columnarEvaluatorAgreesWithRowEvaluator() {
        for (int i = 0; i < CASES; i++) {
            checkColumnar(BASE_SEED + i);
        }
    }

    @Test
    void printedPredicatesParseBackToEqualTrees() {
        for (int i = 0; i < CASES; i++) {
            long seed = BASE_SEED * 31 + i;
            RandomPredicates gen = new RandomPredicates(new Random(seed));
            Expression e = gen.predicate(1 + new Random(seed).nextInt(5));
            String sql = e.toString();
            try {
                assertThat(Query.parse(sql).where()).as("seed %d: %s", seed, sql).isEqualTo(e);
                assertThat(Query.parse(sql, gen.schema()).where()).as("seed %d: %s", seed, sql).isEqualTo(e);
                Query limited = Query.of(e).withLimit(i);
                assertThat(Query.parse(limited.toString())).as("seed %d: %s", seed, limited).isEqualTo(limited);
            } catch (PredicateException ex) {
                fail("seed " + seed + ": printed predicate does not parse: " + sql, ex);
            }
        }
    }

    @Test
    void pruningNeverSkipsAGroupWithAMatch() {
        int skipped = 0;
        int groups = 0;
        for (int i = 0; i < CASES; i++) {
            long seed = BASE_SEED * 17 + i;
            Random random = new Random(seed);
            RandomPredicates gen = new RandomPredicates(random);
            List<MetadataRow> rows = gen.rows(random.nextInt(80));
            ColumnarTable table = ColumnarTable.of(gen.schema(), rows);
            Expression e = gen.predicate(1 + random.nextInt(5));
            BoundPredicate bound = e.bind(gen.schema());
            for (int from = 0; from < rows.size(); ) {
                int to = Math.min(rows.size(), from + 1 + random.nextInt(12));
                GroupStatistics stats = degrade(table.statistics(from, to), random);
                groups++;
                if (bound.prune(stats) == PruneResult.ROWS_CANNOT_MATCH) {
                    skipped++;
                    for (int r = from; r < to; r++) {
                        if (bound.test(rows.get(r))) {
                            fail("seed " + seed + ": pruning skipped rows [" + from + ", " + to + ") but row " + r
                                    + " " + rows.get(r).values() + " matches " + e + "\nstatistics: " + stats);
                        }
                    }
                }
                from = to;
            }
        }
        // Pruning that never prunes would pass trivially.
        assertThat(skipped).as("groups skipped out of %d", groups).isGreaterThan(groups / 10);
    }

    /** Loosens statistics the ways real files do: missing columns, bounds, null counts or dictionaries. */
    private static GroupStatistics degrade(GroupStatistics stats, Random random) {
        if (random.nextInt(3) == 0) {
            return stats;
        }
        Map<String, ColumnStatistics> columns = new HashMap<>();
        for (Map.Entry<String, ColumnStatistics> entry : stats.columns().entrySet()) {
            ColumnStatistics c = entry.getValue();
            switch (random.nextInt(5)) {
                case 0 -> {
                    // dropped entirely
                }
                case 1 -> columns.put(entry.getKey(), ColumnStatistics.of(null, null, c.nullCount()));
                case 2 -> columns.put(entry.getKey(), ColumnStatistics.of(c.min(), c.max(),
                        ColumnStatistics.UNKNOWN_COUNT));
                case 3 -> columns.put(entry.getKey(), ColumnStatistics.of(c.min(), c.max(), c.nullCount()));
                default -> columns.put(entry.getKey(), c);
            }
        }
        return new GroupStatistics(stats.rowCount(), columns);
    }

    private static void checkColumnar(long seed) {
        Random random = new Random(seed);
        RandomPredicates gen = new RandomPredicates(random);
        MetadataSchema schema = gen.schema();
        List<MetadataRow> rows = gen.rows(random.nextInt(60));
        ColumnarTable table = ColumnarTable.of(schema, rows);
        Expression e = gen.predicate(1 + random.nextInt(5));
        BoundPredicate bound = e.bind(schema);
        BoundPredicate negated = Expressions.not(e).bind(schema);

        List<Integer> isTrue = new ArrayList<>();
        List<Integer> isFalse = new ArrayList<>();
        for (int r = 0; r < rows.size(); r++) {
            Boolean result = bound.evaluate(rows.get(r));
            if (Boolean.TRUE.equals(result)) {
                isTrue.add(r);
            } else if (Boolean.FALSE.equals(result)) {
                isFalse.add(r);
            }
        }
        String context = "seed " + seed + ": " + e + "\nschema: " + schema.describeColumns() + "\nrows:\n"
                + rows.stream().map(row -> "  " + row.values()).collect(Collectors.joining("\n"));
        assertThat(ids(bound.select(table))).as(context).isEqualTo(isTrue);
        assertThat(ids(negated.select(table))).as("NOT of " + context).isEqualTo(isFalse);

        // A LIMIT and a row range take a prefix of the matches within the range.
        int from = rows.isEmpty() ? 0 : random.nextInt(rows.size() + 1);
        int to = from + random.nextInt(rows.size() - from + 1);
        long limit = random.nextInt(5);
        List<Integer> expected = isTrue.stream().filter(r -> r >= from && r < to).limit(limit).toList();
        assertThat(ids(bound.select(table, from, to, limit))).as("[%d, %d) LIMIT %d of %s", from, to, limit, context)
                .isEqualTo(expected);
    }

    private static List<Integer> ids(Selection selection) {
        return selection.stream().boxed().toList();
    }

    /** Re-runs one columnar case; paste a failing seed here while debugging. */
    static void replay(long seed) {
        checkColumnar(seed);
    }
}
