package io.layoutbench.examples.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectBackends;
import io.layoutbench.api.dataset.Column;
import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.dataset.MetadataRow;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.api.layout.Dataset;
import io.layoutbench.api.layout.DatasetWriter;
import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.layout.SampleStream;
import io.layoutbench.api.layout.StorageLayout;
import io.layoutbench.api.layout.StorageLayouts;
import io.layoutbench.api.metrics.RequestMetrics;
import io.layoutbench.api.network.NetworkProfiles;
import io.layoutbench.api.predicate.Query;
import io.layoutbench.s3.embedded.EmbeddedS3Server;

import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32C;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Many queries at once against one dataset on a real S3 server (s3proxy on 127.0.0.1) while an ingest replaces it:
 * every query sees the old dataset or the new one whole, never a mix, and none fails. Readers each keep a dataset
 * opened before the replacement and query it again after the commit (the old dataset, whole), and open it afresh
 * after the commit (the new one). The replacement starts once every reader has run a query, and readers stop once
 * they have seen the new dataset: no sleeps, no timing.
 */
class ReplaceWhileReadingSoakTest {

    static final int READERS = 6;
    static final MetadataSchema SCHEMA = new MetadataSchema(List.of(new Column("filename", ColumnType.STRING),
            new Column("version", ColumnType.STRING), new Column("n", ColumnType.BIGINT)));

    @TempDir
    static Path dir;
    static EmbeddedS3Server server;
    static ObjectBackend backend;

    @BeforeAll
    static void startServer() {
        server = EmbeddedS3Server.start(dir);
        server.createBucket("soak");
        backend = ObjectBackends.open(URI.create("s3://soak"), server.backendProperties(), RequestMetrics.NONE);
    }

    @AfterAll
    static void stopServer() {
        if (backend != null) {
            backend.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"l1", "l2", "l3", "fac"})
    void everyQuerySeesTheOldOrTheNewDatasetWhole(String name) throws Exception {
        StorageLayout layout = StorageLayouts.get(name);
        String prefix = "soak/" + name;
        List<Sample> old = samples("old", 120, 1);
        List<Sample> replacement = samples("new", 160, 2);
        List<String> oldView = view(old);
        List<String> newView = view(replacement);
        write(layout, prefix, old);

        CountDownLatch everyReaderRan = new CountDownLatch(READERS);
        CountDownLatch committed = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(READERS + 1);
        try {
            List<Future<int[]>> readers = new ArrayList<>();
            for (int r = 0; r < READERS; r++) {
                readers.add(pool.submit(() -> read(layout, prefix, oldView, newView, everyReaderRan, committed)));
            }
            Future<?> writer = pool.submit(() -> {
                everyReaderRan.await();
                write(layout, prefix, replacement);
                committed.countDown();
                return null;
            });
            writer.get(5, TimeUnit.MINUTES);
            int oldQueries = 0;
            int newQueries = 0;
            for (Future<int[]> reader : readers) {
                int[] seen = reader.get(5, TimeUnit.MINUTES);
                oldQueries += seen[0];
                newQueries += seen[1];
            }
            System.out.printf("%s: %d readers, %d queries saw the old dataset whole, %d the new one, none a mix%n",
                    name, READERS, oldQueries, newQueries);
            assertThat(oldQueries).as("queries that saw the old dataset").isGreaterThanOrEqualTo(2 * READERS);
            assertThat(newQueries).as("queries that saw the new dataset").isGreaterThanOrEqualTo(READERS);
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * One reader: queries the dataset it opened first, and fresh openings, until the replacement is committed; then
     * once more on the first opening (the old dataset) and once on a fresh one (the new dataset). Returns how many
     * queries saw the old and the new dataset.
     */
    private static int[] read(StorageLayout layout, String prefix, List<String> oldView, List<String> newView,
            CountDownLatch everyReaderRan, CountDownLatch committed) throws InterruptedException {
        int[] seen = new int[2];
        try (Dataset openedBefore = layout.open(backend, prefix)) {
            count(query(openedBefore), oldView, newView, seen);
            everyReaderRan.countDown();
            while (committed.getCount() > 0) {
                try (Dataset fresh = layout.open(backend, prefix)) {
                    count(query(fresh), oldView, newView, seen);
                }
            }
            assertThat(query(openedBefore)).as("the dataset opened before the replacement, queried after it")
                    .isEqualTo(oldView);
            seen[0]++;
        }
        try (Dataset after = layout.open(backend, prefix)) {
            assertThat(query(after)).as("the dataset opened after the replacement").isEqualTo(newView);
            seen[1]++;
        }
        return seen;
    }

    private static void count(List<String> result, List<String> oldView, List<String> newView, int[] seen) {
        if (result.equals(oldView)) {
            seen[0]++;
        } else if (result.equals(newView)) {
            seen[1]++;
        } else {
            throw new AssertionError("A query saw neither the old dataset nor the new one whole: " + result.size()
                    + " samples, first " + result.stream().limit(3).toList());
        }
    }

    /** Every sample, in order, as "filename version crc". */
    private static List<String> query(Dataset dataset) {
        List<String> view = new ArrayList<>();
        QueryOptions options = QueryOptions.defaults().withNetwork(NetworkProfiles.get("none"));
        try (SampleStream samples = dataset.query(Query.parse("n >= 0"), options)) {
            samples.forEachRemaining(sample -> view.add(describe(sample)));
        }
        return view;
    }

    private static List<String> view(List<Sample> samples) {
        return samples.stream().map(ReplaceWhileReadingSoakTest::describe).toList();
    }

    private static String describe(Sample sample) {
        CRC32C crc = new CRC32C();
        crc.update(sample.data().duplicate());
        return sample.metadata().get(0) + " " + sample.metadata().get(1) + " " + Long.toHexString(crc.getValue());
    }

    private static void write(StorageLayout layout, String prefix, List<Sample> samples) {
        Map<String, String> options = layout.name().equals("l2") ? Map.of("shard-size", "256KB")
                : layout.name().equals("l1") ? Map.of() : Map.of("file-size", "256KB");
        try (DatasetWriter writer = layout.create(backend, prefix, SCHEMA, options)) {
            samples.forEach(writer::add);
            writer.commit();
        }
    }

    /** {@code count} samples of 1 to 8 KB; names overlap between the versions, bytes and sizes do not. */
    private static List<Sample> samples(String version, int count, long seed) {
        Random random = new Random(seed);
        List<Sample> samples = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            byte[] bytes = new byte[1024 + random.nextInt(7 * 1024)];
            random.nextBytes(bytes);
            samples.add(new Sample(new MetadataRow(SCHEMA, Arrays.asList("s" + i + ".bin", version, (long) i)),
                    ByteBuffer.wrap(bytes)));
        }
        return samples;
    }
}
