package io.layoutbench.fusion.pushdown;

import static org.assertj.core.api.Assertions.assertThat;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.backend.memory.MemoryBackend;
import io.layoutbench.evaluation.tpch.TpchParquet;
import io.layoutbench.fusion.store.FacBackend;
import io.layoutbench.fusion.store.FacOptions;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.roaringbitmap.RoaringBitmap;

/**
 * What a {@link ChunkOperator} keeps between the operators of a query: a chunk too large for its budget still serves
 * the later operators on the rows its filter matched, without being read and decoded again, and answers exactly as a
 * chunk decoded anew.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ChunkOperatorTest {

    private static final String KEY = "lineitem.parquet";
    /**
     * Less than any of a row group's chunks decoded here (15,000 values: 60 KB of dictionary ids, 120 KB of longs),
     * more than the values of the rows the filters below match.
     */
    private static final long SMALL_BUDGET = 32 << 10;
    /**
     * Less than a row group's l_comment decoded (15,000 strings of 10-43 characters), more than the values of the 2,329
     * rows {@code l_comment < 'ab'} matches.
     */
    private static final long COMMENT_BUDGET = 256 << 10;

    private FacBackend store;
    private String generation;

    @BeforeAll
    void store(@TempDir Path dir) {
        Path file = TpchParquet.write("lineitem", 0.01, 15_000, dir.resolve("lineitem.parquet")).file();
        List<ObjectBackend> nodes = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            nodes.add(new MemoryBackend());
        }
        store = FacBackend.create(nodes, FacOptions.defaults(), true);
        store.put(KEY, file);
        generation = store.manifest(KEY).generation();
    }

    @AfterAll
    void close() {
        store.close();
    }

    @Test
    void aChunkOverTheBudgetServesItsProjectionFromTheMatchedRowsItKept() {
        ChunkOperator operator = new ChunkOperator(store, COMMENT_BUDGET);
        RoaringBitmap matches = filter(operator, "q1", "l_comment < 'ab'", true);
        assertThat(matches.getCardinality()).isBetween(1, 15_000 / 4);

        assertProjects(operator, "q1", matches, true);
    }

    @Test
    void theKeptRowsServeAnySubsetOfThemForEveryLaterOperator() {
        ChunkOperator operator = new ChunkOperator(store, SMALL_BUDGET);
        RoaringBitmap matches = filter(operator, "q2", "l_shipmode < 'B'", true);   // AIR: about a seventh
        RoaringBitmap some = new RoaringBitmap();
        matches.forEach((int row) -> {
            if (row % 3 == 0) {
                some.add(row);
            }
        });

        long reads = blockReads();
        NodeReply keys = operator.run(0, project("q2", ChunkOperation.Kind.GROUP_KEYS, "l_shipmode", some, true));
        NodeReply values = operator.run(0, project("q2", ChunkOperation.Kind.PROJECT, "l_shipmode", some));

        assertThat(blockReads() - reads).isZero();
        assertThat(keysOf(keys.body())).isEqualTo(keysOf(decodedAnew(ChunkOperation.Kind.GROUP_KEYS, "l_shipmode",
                some)));
        assertThat(values.body()).isEqualTo(decodedAnew(ChunkOperation.Kind.PROJECT, "l_shipmode", some));
    }

    @Test
    void anAggregateOverTheKeptRowsAddsWhatTheWholeChunkAdds() {
        ChunkOperator operator = new ChunkOperator(store, SMALL_BUDGET);
        RoaringBitmap matches = filter(operator, "q3", "l_quantity < 5", true);
        Function<ChunkOperator, NodeReply> sum = o -> o.run(0, ChunkOperation.aggregate("q3", KEY, generation, 0,
                "l_quantity", serialized(matches), ByteBuffer.allocate(0), 1));

        long reads = blockReads();
        NodeReply kept = sum.apply(operator);

        assertThat(blockReads() - reads).isZero();
        assertThat(kept.body()).isEqualTo(sum.apply(new ChunkOperator(store, 0)).body());
    }

    @Test
    void rowsTheFilterDidNotMatchAreReadAgainNotMadeUp() {
        ChunkOperator operator = new ChunkOperator(store, COMMENT_BUDGET);
        RoaringBitmap matches = filter(operator, "q4", "l_comment < 'ab'", true);
        RoaringBitmap more = matches.clone();
        more.add(0, 15_000);

        assertProjects(operator, "q4", more, false);
    }

    @Test
    void aFilterThatMatchesMostRowsKeepsTheChunkOnlyIfItFits() {
        ChunkOperator tight = new ChunkOperator(store, COMMENT_BUDGET);
        RoaringBitmap most = filter(tight, "q5", "l_comment > 'b'", true);
        assertThat(most.getCardinality()).isGreaterThan(15_000 / 4);
        assertProjects(tight, "q5", most, false);   // too large to keep

        ChunkOperator roomy = new ChunkOperator(store, ChunkOperator.DEFAULT_KEEP_BYTES);
        filter(roomy, "q6", "l_comment > 'b'", true);
        assertProjects(roomy, "q6", most, true);
    }

    /**
     * Projects l_comment at {@code rows} for {@code queryId}: answered as a chunk decoded anew would answer, and from
     * what an earlier operator kept (no block read) or not ({@code kept}).
     */
    private void assertProjects(ChunkOperator operator, String queryId, RoaringBitmap rows, boolean kept) {
        long reads = blockReads();
        NodeReply projected = operator.run(0, project(queryId, ChunkOperation.Kind.PROJECT, "l_comment", rows));
        long read = blockReads() - reads;
        if (kept) {
            assertThat(read).as("block reads: served from what was kept").isZero();
        } else {
            assertThat(read).as("block reads: read and decoded again").isPositive();
        }
        assertThat(projected.body()).isEqualTo(decodedAnew(ChunkOperation.Kind.PROJECT, "l_comment", rows));
    }

    private long blockReads() {
        return store.statistics().blockReads();
    }

    /** Runs a filter of row group 0 on node 0 and returns the rows it matched. */
    private RoaringBitmap filter(ChunkOperator operator, String queryId, String predicate, boolean keep) {
        String column = predicate.substring(0, predicate.indexOf(' '));
        NodeReply reply = operator.run(0, ChunkOperation.filter(queryId, KEY, generation, 0, column, predicate, keep));
        RoaringBitmap rows = new RoaringBitmap();
        try {
            rows.deserialize(reply.body());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return rows;
    }

    private ChunkOperation project(String queryId, ChunkOperation.Kind kind, String column, RoaringBitmap rows) {
        return project(queryId, kind, column, rows, false);
    }

    private ChunkOperation project(String queryId, ChunkOperation.Kind kind, String column, RoaringBitmap rows,
            boolean keep) {
        return ChunkOperation.select(kind, queryId, KEY, generation, 0, column, serialized(rows), keep);
    }

    /** The reply of an operator that keeps nothing: the chunk read and decoded for this operation alone. */
    private ByteBuffer decodedAnew(ChunkOperation.Kind kind, String column, RoaringBitmap rows) {
        return new ChunkOperator(store, 0).run(0, project("fresh", kind, column, rows)).body();
    }

    /** Each selected row's key, whatever the order of the distinct values in the reply. */
    private static List<Object> keysOf(ByteBuffer reply) {
        GroupKeys.Decoded keys = GroupKeys.decode("l_shipmode", reply);
        List<Object> values = new ArrayList<>();
        for (int id : keys.ids()) {
            values.add(keys.dictionary().get(id));
        }
        return values;
    }

    private static ByteBuffer serialized(RoaringBitmap rows) {
        ByteBuffer out = ByteBuffer.allocate(rows.serializedSizeInBytes());
        rows.serialize(out);
        return out.flip();
    }
}
