package io.layoutbench.jmh.range;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectBackends;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.api.layout.Dataset;
import io.layoutbench.api.layout.DatasetWriter;
import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.layout.RetrievalMode;
import io.layoutbench.api.layout.RetrievalPlan;
import io.layoutbench.api.layout.SampleStream;
import io.layoutbench.api.layout.StorageLayout;
import io.layoutbench.api.layout.StorageLayouts;
import io.layoutbench.api.predicate.Query;
import io.layoutbench.datasets.synthetic.ImageNetScale;
import io.layoutbench.datasets.synthetic.SyntheticImageNet;

import java.util.Map;
import java.util.concurrent.TimeUnit;

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
 * Extracting samples from tar shards by byte range, the L2 read path, end to end through the public API: a warm
 * {@link Dataset} answers {@code filesize_bytes > 0 LIMIT samples}, whose rows are the first {@code samples}
 * members of the first shard, and every sample is read to the end of the {@link SampleStream}. One operation is
 * one query: select rows in the cached metadata table, plan ranged GETs from its shard/offset/size columns (one
 * per sample in {@code PAPER} mode, coalesced with the gap derived for t3.medium in {@code OPTIMIZED} mode), issue
 * them, slice each member out of its response, verify its CRC32C and hand it over.
 *
 * <p>The dataset is {@link SyntheticImageNet} {@code tiny} (1,030 JPEG-like samples, about 110 MB) in class order,
 * written once per trial by the {@code l2} layout into 64 MB shards on a {@code mem:} backend, which serves a
 * range as a slice of the stored array: no network and no copy, so what is measured is the client's own work
 * per query and per sample. The tar writer and the member-slicing task are package-private in
 * {@code io.layoutbench.layouts.l2}, so this is the lowest public entry to them.
 *
 * <p>Scores: queries per second (primary), and the secondary {@code samples} (samples/s) and {@code mebibytes}
 * (MiB/s of sample payload).
 *
 * <pre>
 * java -jar layoutbench-jmh/target/benchmarks.jar L2TarSampleReadBenchmark
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class L2TarSampleReadBenchmark {

    static final String PREFIX = "tiny/l2";

    @Param({"1", "16", "256"})
    public int samples;

    @Param({"PAPER", "OPTIMIZED"})
    public RetrievalMode mode;

    private ObjectBackend store;
    private Dataset dataset;
    private Query query;
    private QueryOptions options;

    /** Samples and their payload handed out, reported by JMH per second of measurement. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Delivered {
        public long samples;
        public double mebibytes;
    }

    @Setup(Level.Trial)
    public void setUp() {
        store = ObjectBackends.open("mem:l2-tar-sample-read-" + System.nanoTime());
        StorageLayout l2 = StorageLayouts.get("l2");
        try (DatasetWriter writer = l2.create(store, PREFIX, MetadataSchema.imageNet(), Map.of("shard-size", "64MB"))) {
            SyntheticImageNet.of(ImageNetScale.TINY, 42, false).samples().forEach(writer::add);
            writer.commit();
        }
        dataset = l2.open(store, PREFIX);
        query = Query.parse("filesize_bytes > 0 LIMIT " + samples);
        options = QueryOptions.defaults().withMode(mode);
        // The first query loads the metadata table; the benchmark measures warm queries, as a training loop runs.
        long payload = drain(null, null);
        RetrievalPlan plan = dataset.plan(query, options);
        System.out.printf("%n%d samples (%d KB) in %s mode: %d ranged GETs of %d bytes in all%n", samples,
                payload >> 10, mode, plan.dataRequests().size(),
                plan.dataRequests().stream().mapToLong(r -> r.range().length()).sum());
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        dataset.close();
        store.close();
    }

    @Benchmark
    public long query(Delivered delivered, Blackhole blackhole) {
        return drain(delivered, blackhole);
    }

    /** Runs the query to the end, checking the sample count; returns the payload bytes. */
    private long drain(Delivered delivered, Blackhole blackhole) {
        long bytes = 0;
        int count = 0;
        try (SampleStream stream = dataset.query(query, options)) {
            while (stream.hasNext()) {
                Sample sample = stream.next();
                if (blackhole != null) {
                    blackhole.consume(sample.data());
                }
                bytes += sample.size();
                count++;
            }
        }
        if (count != samples) {
            throw new IllegalStateException("Expected " + samples + " samples, the query returned " + count);
        }
        if (delivered != null) {
            delivered.samples += count;
            delivered.mebibytes += bytes / (double) (1 << 20);
        }
        return bytes;
    }
}
