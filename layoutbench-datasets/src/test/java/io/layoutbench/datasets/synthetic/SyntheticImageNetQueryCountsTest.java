package io.layoutbench.datasets.synthetic;

import static org.assertj.core.api.Assertions.assertThat;

import io.layoutbench.api.dataset.MetadataRow;

import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

import org.junit.jupiter.api.Test;

/**
 * The 11 LayoutBench queries, as plain predicates over the synthetic metadata, return the paper's Table 2 counts:
 * Q1-Q5 exactly, Q6-Q11 within 15% (the generator is built to hit them exactly, and this is checked too), and at
 * least one sample at the tiny scale.
 */
class SyntheticImageNetQueryCountsTest {

    /** Table 2 of the LayoutBench paper: result counts of Q1-Q11 at mini, medium and full. */
    private static final long[] PAPER_MINI = {1, 10, 13, 130, 39, 86, 133, 2_311, 6, 1, 1};
    private static final long[] PAPER_MEDIUM = {1, 100, 130, 1_300, 390, 801, 1_309, 23_006, 47, 27, 6};
    private static final long[] PAPER_FULL = {1, 1_000, 1_300, 13_000, 3_900, 7_837, 12_635, 229_710, 575, 294, 32};

    /** Q2's LIMIT at each scale. */
    private static final int LIMIT_MINI = 10;
    private static final int LIMIT_MEDIUM = 100;
    private static final int LIMIT_FULL = 1_000;

    private static final Set<String> Q5_LABELS = Set.of("Old_English_sheepdog", "giant_panda", "water_buffalo");
    private static final Set<String> Q9_LABELS = Set.of("canoe", "starfish");

    /** Q1-Q11 without their LIMITs, as the paper's SQL writes them. */
    private static final List<Predicate<MetadataRow>> QUERIES = List.of(
            r -> label(r).equals("streetcar"),
            r -> label(r).equals("lemon"),
            r -> label(r).equals("cello"),
            r -> label(r).endsWith("snake"),
            r -> Q5_LABELS.contains(label(r)),
            r -> size(r) >= 500 * 1024,
            r -> width(r) >= 1024 && height(r) >= 1024,
            r -> (double) width(r) / (double) height(r) > 1.5,
            r -> Q9_LABELS.contains(label(r)) && size(r) < 100 * 1024,
            r -> label(r).equals("tiger_cat") && size(r) < 100 * 1024,
            r -> label(r).equals("bagel") && width(r) >= 512 && height(r) >= 512 && size(r) < 200 * 1024);

    @Test
    void tinyAnswersEveryQuery() {
        long[] counts = queryCounts(SyntheticImageNet.of(ImageNetScale.TINY, 1L, false), LIMIT_MINI);

        assertThat(counts).as("every query returns a sample").doesNotContain(0L);
        assertThat(counts[0]).isEqualTo(1);
        assertThat(counts[3]).as("Q4: ten classes end in 'snake'").isEqualTo(10);
    }

    @Test
    void miniMatchesTable2() {
        assertMatchesPaper(queryCounts(SyntheticImageNet.of(ImageNetScale.MINI, 1L, false), LIMIT_MINI), PAPER_MINI);
    }

    @Test
    void mediumMatchesTable2() {
        assertMatchesPaper(queryCounts(SyntheticImageNet.of(ImageNetScale.MEDIUM, 2L, false), LIMIT_MEDIUM),
                PAPER_MEDIUM);
    }

    @Test
    void fullMatchesTable2() {
        assertMatchesPaper(queryCounts(SyntheticImageNet.of(ImageNetScale.FULL, 3L, false), LIMIT_FULL), PAPER_FULL);
    }

    @Test
    void countsDoNotDependOnSeedOrOrder() {
        long[] plain = queryCounts(SyntheticImageNet.of(ImageNetScale.MINI, 1L, false), LIMIT_MINI);
        long[] shuffled = queryCounts(SyntheticImageNet.of(ImageNetScale.MINI, 987_654_321L, true), LIMIT_MINI);

        assertThat(shuffled).containsExactly(plain);
    }

    private static void assertMatchesPaper(long[] counts, long[] paper) {
        for (int q = 0; q < 5; q++) {
            assertThat(counts[q]).as("Q%d", q + 1).isEqualTo(paper[q]);
        }
        for (int q = 5; q < 11; q++) {
            long tolerance = (long) Math.floor(paper[q] * 0.15);
            assertThat(counts[q]).as("Q%d within 15%% of %d", q + 1, paper[q])
                    .isBetween(paper[q] - tolerance, paper[q] + tolerance);
        }
        assertThat(counts).as("Q1-Q11 exactly as in Table 2").containsExactly(paper);
    }

    /** Each query's result count, Q1 with LIMIT 1 and Q2 with LIMIT {@code limit}; one pass over the metadata. */
    static long[] queryCounts(SyntheticImageNet dataset, int limit) {
        long[] counts = new long[QUERIES.size()];
        Iterator<MetadataRow> rows = dataset.metadata().iterator();
        while (rows.hasNext()) {
            MetadataRow row = rows.next();
            for (int q = 0; q < counts.length; q++) {
                if (QUERIES.get(q).test(row)) {
                    counts[q]++;
                }
            }
        }
        counts[0] = Math.min(counts[0], 1);
        counts[1] = Math.min(counts[1], limit);
        return counts;
    }

    private static String label(MetadataRow row) {
        return row.getString("human_label");
    }

    private static long size(MetadataRow row) {
        return row.getLong("filesize_bytes");
    }

    private static long width(MetadataRow row) {
        return row.getLong("width");
    }

    private static long height(MetadataRow row) {
        return row.getLong("height");
    }
}
