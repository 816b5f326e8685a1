package io.layoutbench.jmh.range;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectBackends;
import io.layoutbench.api.backend.ObjectInfo;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.layout.DatasetWriter;
import io.layoutbench.api.layout.StorageLayouts;
import io.layoutbench.datasets.synthetic.ImageNetScale;
import io.layoutbench.datasets.synthetic.SyntheticImageNet;
import io.layoutbench.layouts.l3.L3Layout;
import io.layoutbench.parquet.BlobReader;
import io.layoutbench.parquet.ParquetObject;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Decoding image blobs out of L3 Parquet pages with {@link BlobReader}, the public entry that fetches blob pages
 * and slices each image out of its page (PLAIN {@code BYTE_ARRAY}, uncompressed): {@code rows} evenly spread rows
 * (the middle row of each of {@code rows} equal strides) of the first row group of the first part file, read two
 * ways:
 * <ul>
 *   <li>{@code selectivePages}: {@link BlobReader#read}, the optimized mode: the offset index picks the pages
 *       holding the rows, nearby pages are fetched together, and only those pages' headers are parsed.</li>
 *   <li>{@code wholeRowGroup}: {@link BlobReader#readWholeRowGroup}, the paper's (DuckDB's) mode: every column
 *       chunk of the row group is fetched and the blob chunk is walked page by page, without the page index,
 *       up to the page of the last wanted row.</li>
 * </ul>
 *
 * <p>The file is what the {@code l3} layout writes for {@link SyntheticImageNet} {@code tiny} (its defaults: 64 MB
 * part files, one row group each, 4 KiB target pages, so one image per page) on a {@code mem:} backend. A
 * {@code mem:} range is a slice of the stored array, so fetching is nearly free and the score is the reader's
 * work: planning from the page index, Thrift page headers, slicing. Footer and page indexes are loaded in setup,
 * as a warm reader has them. Every blob is checked for presence and goes to the Blackhole.
 *
 * <p>Scores: reads per second (primary), and the secondary {@code blobs} (blobs/s) and {@code mebibytes} (MiB/s
 * of blob bytes handed out).
 *
 * <pre>
 * java -jar layoutbench-jmh/target/benchmarks.jar L3BlobPageReadBenchmark
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class L3BlobPageReadBenchmark {

    static final String PREFIX = "tiny/l3";

    @Param({"1", "16", "256"})
    public int rows;

    private ObjectBackend store;
    private BlobReader blobs;
    private int[] rowIds;

    /** Blobs and their bytes handed out, reported by JMH per second of measurement. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Delivered {
        public long blobs;
        public double mebibytes;
    }

    @Setup(Level.Trial)
    public void setUp() {
        store = ObjectBackends.open("mem:l3-blob-page-read-" + System.nanoTime());
        try (DatasetWriter writer = StorageLayouts.get("l3").create(store, PREFIX, MetadataSchema.imageNet(),
                Map.of())) {
            SyntheticImageNet.of(ImageNetScale.TINY, 42, false).samples().forEach(writer::add);
            writer.commit();
        }
        String key;
        try (Stream<ObjectInfo> objects = store.list(PREFIX + "/")) {
            key = objects.map(ObjectInfo::key).filter(k -> k.endsWith("/part-00000.parquet")).findFirst()
                    .orElseThrow(() -> new IllegalStateException("The l3 layout wrote no part-00000.parquet"));
        }
        ParquetObject object = ParquetObject.open(store, key);
        object.loadPageIndexes();
        blobs = new BlobReader(object, L3Layout.IMAGE_BYTES);
        long groupRows = object.footer().rowGroup(0).rowCount();
        if (groupRows < rows) {
            throw new IllegalStateException(key + " row group 0 has " + groupRows + " rows, fewer than " + rows);
        }
        // The middle row of each of `rows` equal strides: the whole-row-group walk stops after the last wanted
        // row, so rows bunched at the start would flatter it.
        rowIds = new int[rows];
        for (int i = 0; i < rows; i++) {
            rowIds[i] = (int) ((2L * i + 1) * groupRows / (2L * rows));
        }
        System.out.printf("%n%s: row group 0 has %d rows; %d rows touch %d pages%n", key, groupRows, rows,
                blobs.pagesFor(0, rowIds).size());
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        store.close();
    }

    @Benchmark
    public void selectivePages(Delivered delivered, Blackhole blackhole) {
        consume(blobs.read(0, rowIds), delivered, blackhole);
    }

    @Benchmark
    public void wholeRowGroup(Delivered delivered, Blackhole blackhole) {
        consume(blobs.readWholeRowGroup(0, rowIds), delivered, blackhole);
    }

    private void consume(List<ByteBuffer> read, Delivered delivered, Blackhole blackhole) {
        if (read.size() != rows) {
            throw new IllegalStateException("Asked for " + rows + " blobs, got " + read.size());
        }
        long bytes = 0;
        for (ByteBuffer blob : read) {
            if (blob == null || !blob.hasRemaining()) {
                throw new IllegalStateException("A blob came back missing or empty");
            }
            blackhole.consume(blob);
            bytes += blob.remaining();
        }
        delivered.blobs += read.size();
        delivered.mebibytes += bytes / (double) (1 << 20);
    }
}
