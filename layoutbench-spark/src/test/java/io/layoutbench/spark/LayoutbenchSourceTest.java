package io.layoutbench.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectBackends;
import io.layoutbench.api.layout.Dataset;
import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.layout.SampleStream;
import io.layoutbench.api.layout.StorageLayouts;
import io.layoutbench.api.predicate.Query;
import io.layoutbench.evaluation.paper.PaperQueries;
import io.layoutbench.evaluation.paper.PaperQuery;
import java.util.List;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;

/** The tiny synthetic ImageNet read through Spark in every layout: whole, filtered, projected; what it costs. */
class LayoutbenchSourceTest {

    @Test
    void everyLayoutReadsWholeAndFiltered() {
        for (String layout : LocalSpark.LAYOUTS) {
            org.apache.spark.sql.Dataset<Row> all = LocalSpark.read(layout);
            assertThat(all.count()).as(layout).isEqualTo(LocalSpark.TINY_SAMPLES);
            assertThat(all.filter("label = 'cello'").count()).as(layout).isEqualTo(4);
            List<Row> cellos = all.filter("label = 'cello'").select("filename", "data").collectAsList();
            assertThat(cellos).hasSize(4).allSatisfy(row -> assertThat((byte[]) row.get(1)).isNotEmpty());
            assertThat(all.rdd().getNumPartitions()).as(layout).isGreaterThan(1);
        }
    }

    /** Q1-Q11 through Spark SQL (the paper's WHERE and LIMIT, {@code human_label} an alias) count as the library. */
    @Test
    void thePaperQueriesCountAsTheLibrary() {
        try (ObjectBackend backend = ObjectBackends.open(LocalSpark.backend())) {
            for (String layout : LocalSpark.LAYOUTS) {
                LocalSpark.read(layout).selectExpr("*", "label AS human_label")
                        .createOrReplaceTempView("tiny_" + layout);
                try (Dataset dataset = StorageLayouts.get(layout).open(backend, "tiny/" + layout)) {
                    for (PaperQuery q : PaperQueries.forScale("tiny")) {
                        long library = 0;
                        try (SampleStream samples = dataset.query(Query.parse(q.sql()), QueryOptions.defaults()
                                .withoutPayload())) {
                            for (; samples.hasNext(); samples.next()) {
                                library++;
                            }
                        }
                        String[] whereAndLimit = q.sql().split(" LIMIT ");
                        long spark = LocalSpark.session().sql("SELECT filename FROM tiny_" + layout + " WHERE "
                                + whereAndLimit[0] + (whereAndLimit.length > 1 ? " LIMIT " + whereAndLimit[1] : ""))
                                .count();
                        assertThat(spark).as(layout + " " + q.id()).isEqualTo(library).isPositive();
                    }
                }
            }
        }
    }

    /**
     * A filter Spark hands over selects what is read: the cellos cost what the library's own query of them costs
     * (manifest, metadata, then four samples: one task), a small part of reading every sample; a read of metadata
     * columns alone reads what the library's query without payload reads, no payload byte; Q8's per-row division is
     * evaluated in the store too.
     */
    @Test
    void pushdownIsProvenByTheBytesRead() {
        for (String layout : LocalSpark.LAYOUTS) {
            org.apache.spark.sql.Dataset<Row> everything = LocalSpark.read(layout).select("filename", "data");
            everything.collectAsList();
            long all = LocalSpark.metric(everything, ReadMetrics.BYTES);
            org.apache.spark.sql.Dataset<Row> cellos = LocalSpark.read(layout).filter("label = 'cello'")
                    .select("filename", "data");
            assertThat(cellos.collectAsList()).hasSize(4);
            long filtered = LocalSpark.metric(cellos, ReadMetrics.BYTES);
            org.apache.spark.sql.Dataset<Row> names = LocalSpark.read(layout).select("filename", "label");
            assertThat(names.collectAsList()).hasSize((int) LocalSpark.TINY_SAMPLES);
            long metadata = LocalSpark.metric(names, ReadMetrics.BYTES);
            long libraryCellos = libraryBytes(layout, "label = 'cello'", QueryOptions.defaults());
            long libraryNames = libraryBytes(layout, "TRUE", QueryOptions.defaults().withoutPayload());
            System.out.printf("%s: every sample %d B, cellos %d B (library %d B), metadata only %d B (library %d B)%n",
                    layout, all, filtered, libraryCellos, metadata, libraryNames);
            assertThat(all).as(layout + ": every sample").isGreaterThan(payloadBytes(layout));
            assertThat(filtered).as(layout + ": the cellos, filtered in the store").isEqualTo(libraryCellos)
                    .isLessThan(all / 5);
            assertThat(metadata).as(layout + ": metadata columns only").isEqualTo(libraryNames)
                    .isLessThan(all / 5);
            String q8 = "CAST(width AS DOUBLE) / CAST(height AS DOUBLE) > 1.5";
            org.apache.spark.sql.Dataset<Row> wide = LocalSpark.read(layout).filter(q8).select("filename", "data");
            assertThat(wide.collectAsList()).isNotEmpty();
            // Two tasks at this partition size, each coalescing its own part: about the library's bytes.
            assertThat(LocalSpark.metric(wide, ReadMetrics.BYTES)).as(layout + ": Q8's arithmetic, in the store")
                    .isLessThan(all / 5);
        }
    }

    /** Bytes the library's query {@code where} of the tiny dataset in {@code layout} receives: one task's read. */
    private static long libraryBytes(String layout, String where, QueryOptions options) {
        return SparkBenchSupport.libraryBytes(LocalSpark.backend(), layout, "tiny/" + layout, where, options);
    }

    private static long payloadBytes(String layout) {
        try (ObjectBackend backend = ObjectBackends.open(LocalSpark.backend());
                Dataset dataset = StorageLayouts.get(layout).open(backend, "tiny/" + layout)) {
            return dataset.summary().payloadBytes();
        }
    }

    /** A filter that does not translate (a function, a payload column) stays with Spark, and still holds. */
    @Test
    void untranslatableFiltersStayWithSpark() {
        for (String layout : List.of("l2", "l3")) {
            org.apache.spark.sql.Dataset<Row> all = LocalSpark.read(layout);
            assertThat(all.filter("length(filename) > 20 AND label = 'cello'").count())
                    .isEqualTo(all.select("filename", "label").collectAsList().stream()
                            .filter(r -> r.getString(0).length() > 20 && r.getString(1).equals("cello")).count());
            assertThat(all.filter("length(data) > 0 AND label = 'cello'").count()).isEqualTo(4);
        }
    }
}
