package io.layoutbench.api.predicate;

import static org.assertj.core.api.Assertions.assertThat;

import io.layoutbench.api.dataset.MetadataRow;
import io.layoutbench.api.dataset.MetadataSchema;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Realistic queries (the shapes of the LayoutBench paper's, whose own tests live with them in layoutbench-evaluation)
 * over a synthetic ImageNet-like table large enough to span several evaluation blocks, checked against the row
 * evaluator.
 */
class ColumnarEvaluatorTest {
    private static final MetadataSchema SCHEMA = MetadataSchema.imageNet();
    private static final int ROWS = 150_000;
    private static final String[] REAL = {"streetcar", "lemon", "cello", "tiger_cat", "bagel", "canoe", "starfish",
            "Old_English_sheepdog", "giant_panda", "water_buffalo", "king_snake", "garter_snake", "boa_constrictor"};
    /** A point lookup, LIMITs, equality, LIKE, IN, ranges, per-row arithmetic and conjunctions. */
    private static final List<String> REALISTIC = List.of(
            "human_label = 'streetcar' LIMIT 1",
            "human_label = 'lemon' LIMIT 1000",
            "human_label = 'cello'",
            "human_label LIKE '%snake'",
            "human_label IN ('Old_English_sheepdog', 'giant_panda', 'water_buffalo')",
            "filesize_bytes >= 500 * 1024",
            "width >= 1024 AND height >= 1024",
            "CAST(width AS DOUBLE) / CAST(height AS DOUBLE) > 1.5",
            "human_label IN ('canoe', 'starfish') AND filesize_bytes < 100 * 1024",
            "human_label = 'tiger_cat' AND filesize_bytes < 100 * 1024",
            "human_label = 'bagel' AND width >= 512 AND height >= 512 AND filesize_bytes < 200 * 1024");

    private static List<MetadataRow> rows;
    private static ColumnarTable table;

    @BeforeAll
    static void buildTable() {
        Random random = new Random(42);
        List<String> labels = new ArrayList<>(List.of(REAL));
        for (int i = labels.size(); i < 200; i++) {
            labels.add("class_" + i);
        }
        rows = new ArrayList<>(ROWS);
        ColumnarTable.Builder builder = ColumnarTable.builder(SCHEMA, ROWS);
        for (int i = 0; i < ROWS; i++) {
            // Labels cluster a little so LIMIT has to look past the first blocks for rare ones.
            String label = i < 70_000 && random.nextInt(4) == 0 ? "class_199" : labels.get(random.nextInt(200));
            long size = (long) Math.exp(11.6 + 0.6 * random.nextGaussian());
            long width = random.nextInt(10) == 0 ? 1024 + random.nextInt(1500) : 200 + random.nextInt(600);
            long height = random.nextInt(10) == 0 ? 1024 + random.nextInt(1500) : 150 + random.nextInt(500);
            MetadataRow row = new MetadataRow(SCHEMA, java.util.Arrays.asList(
                    "n" + i + ".JPEG", label, size, width, height));
            rows.add(row);
            builder.add(row);
        }
        table = builder.build();
    }

    @Test
    void realisticQueriesMatchTheRowEvaluator() {
        for (String where : REALISTIC) {
            BoundQuery query = Query.parse(where, SCHEMA).bind(SCHEMA);
            List<Integer> expected = new ArrayList<>();
            for (int r = 0; r < ROWS && expected.size() < query.limit().orElse(Long.MAX_VALUE); r++) {
                if (query.test(rows.get(r))) {
                    expected.add(r);
                }
            }
            Selection selection = query.select(table);
            assertThat(selection.stream().boxed().toList()).as(where).isEqualTo(expected);
            assertThat(selection.size()).as(where + " selects something").isPositive();
        }
    }

    /**
     * A call over a few rows sizes its vectors to them (a planner evaluates a query once per small row group); every
     * range, from none to past a batch of 1,024 and at the table's end, selects what the whole table's selection
     * holds in it. (PredicatePropertyTest checks every kernel on random tables of fewer than 60 rows.)
     */
    @Test
    void smallAndUnevenRangesSelectWhatTheWholeTableDoes() {
        List<String> queries = new ArrayList<>(REALISTIC);
        // Sparse row ids into a computed comparison.
        queries.add("human_label = 'cello' AND CAST(width AS DOUBLE) / CAST(height AS DOUBLE) > 1.5");
        for (String where : queries) {
            BoundPredicate predicate = Query.parse(where, SCHEMA).bind(SCHEMA).predicate();
            Selection all = predicate.select(table);
            int start = 0;
            for (int size : new int[] {1, 2, 3, 4, 7, 64, 1023, 1024, 1025, 5000}) {
                Selection range = predicate.select(table, start, start + size, Long.MAX_VALUE);
                int from = start;
                assertThat(range).as("%s over [%d, %d)", where, start, start + size).isEqualTo(Selection.of(
                        all.stream().filter(r -> r >= from && r < from + size).toArray()));
                start += size + 17;
            }
            assertThat(predicate.select(table, 500, 500, Long.MAX_VALUE).isEmpty()).isTrue();
            assertThat(predicate.select(table, ROWS - 3, ROWS, Long.MAX_VALUE)).isEqualTo(Selection.of(
                    all.stream().filter(r -> r >= ROWS - 3).toArray()));
        }
    }

    @Test
    void limitStopsInRowOrderAcrossBlocks() {
        BoundQuery rare = Query.parse("label = 'cello' LIMIT 500", SCHEMA).bind(SCHEMA);
        Selection first = rare.select(table);
        Selection all = rare.predicate().select(table);
        assertThat(first).isEqualTo(all.limit(500));
        assertThat(first.get(499)).as("the 500th cello is past the first 64K-row block").isGreaterThan(65_536);
        assertThat(Query.parse("label = 'cello' LIMIT 0").bind(SCHEMA).select(table).isEmpty()).isTrue();
        Selection range = rare.select(table, 100_000, 120_000);
        assertThat(range.stream().allMatch(r -> r >= 100_000 && r < 120_000)).isTrue();
        assertThat(range).isEqualTo(Selection.of(
                all.stream().filter(r -> r >= 100_000 && r < 120_000).limit(500).toArray()));
    }

    @Test
    void boundQueriesAreSafeToShareAcrossThreads() throws Exception {
        List<BoundQuery> queries = REALISTIC.stream().map(q -> Query.parse(q, SCHEMA).bind(SCHEMA)).toList();
        List<Selection> expected = queries.stream().map(q -> q.select(table)).toList();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Boolean>> results = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                results.add(pool.submit(() -> {
                    for (int i = 0; i < queries.size(); i++) {
                        if (!queries.get(i).select(table).equals(expected.get(i))) {
                            return false;
                        }
                    }
                    return true;
                }));
            }
            for (Future<Boolean> result : results) {
                assertThat(result.get()).isTrue();
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
