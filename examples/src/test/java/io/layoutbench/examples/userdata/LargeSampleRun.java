package io.layoutbench.examples.userdata;

import io.layoutbench.api.dataset.Blob;
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
import io.layoutbench.api.predicate.Query;
import io.layoutbench.backend.file.FileBackend;
import io.layoutbench.examples.bench.MemorySampler;

import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;

/**
 * The work of {@link LargeSamplePartialReadTest}, run in a JVM of its own with a small heap: writes a dataset of two
 * samples, a small one and one whose {@code mp4} field is a large local file ({@link Blob#ofFile}), into a layout on
 * the file backend; queries it with default options; reads a part of the large field, then all of it as a stream;
 * and prints what it saw, one {@code name=value} a line on standard output, for the test to check:
 *
 * <pre>{@code
 * java -Xmx256m ... LargeSampleRun l3 /tmp/large.bin /tmp/data 100000000 1048576 [option=value ...]
 * }</pre>
 */
public final class LargeSampleRun {

    /** The dataset's schema: a name and a label; the large video and a small caption as payload fields. */
    static final MetadataSchema SCHEMA = new MetadataSchema(List.of(new Column(MetadataSchema.FILENAME,
            ColumnType.STRING), new Column(MetadataSchema.LABEL, ColumnType.STRING)))
            .withPayloadFields(List.of("mp4", "json"));

    private LargeSampleRun() {
    }

    public static void main(String[] args) throws IOException {
        String layoutName = args[0];
        Path file = Path.of(args[1]);
        Path data = Path.of(args[2]);
        long offset = Long.parseLong(args[3]);
        int length = Integer.parseInt(args[4]);
        Map<String, String> options = new LinkedHashMap<>();
        for (String option : Arrays.asList(args).subList(5, args.length)) {
            String[] keyAndValue = option.split("=", 2);
            options.put(keyAndValue[0], keyAndValue[1]);
        }
        StorageLayout layout = StorageLayouts.get(layoutName);
        // Scratch data: no fsync, so that writing a large sample costs what the layout does, not the disk's flushes.
        try (FileBackend backend = new FileBackend(data, FileBackend.Options.defaults().withFsync(false),
                RequestMetrics.NONE)) {
            long started = System.nanoTime();
            try (MemorySampler.Measurement memory = MemorySampler.start();
                    DatasetWriter writer = layout.create(backend, "large", SCHEMA, options)) {
                writer.add(sample("small.mp4", Blob.of(new byte[64 << 10])));
                writer.add(sample("large.mp4", Blob.ofFile(file)));
                writer.commit();
                print("write.peak.heap", memory.peaks().heapBytes());
            }
            print("write.seconds", (System.nanoTime() - started) / 1e9);
            System.gc();
            print("write.heap.after.gc", ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
            read(layout, new TransferCounter(backend), file, offset, length);
            print("process.peak.rss", MemorySampler.processPeakResidentBytes());
        }
    }

    /**
     * Queries every sample with default options and reads the large field in part, then whole, each counted at the
     * backend ({@code counted}) and by the query's own metrics (its stream's statistics).
     */
    private static void read(StorageLayout layout, TransferCounter counted, Path file, long offset, int length)
            throws IOException {
        try (Dataset dataset = layout.open(counted, "large");
                SampleStream stream = dataset.query(Query.parse("TRUE"), QueryOptions.defaults())) {
            List<Sample> samples = new ArrayList<>();
            Blob video;
            try (MemorySampler.Measurement memory = MemorySampler.start()) {
                stream.forEachRemaining(samples::add);
                print("query.samples", samples.size());
                print("query.bytes", counted.bytes());
                print("query.stats.bytes", stream.stats().transfer().bytesReceived());
                video = samples.get(1).field("mp4");
                print("field.size", video.size());
                print("field.inMemory", video.inMemory());

                long bytes = counted.bytes();
                long reads = counted.reads();
                long statsBytes = stream.stats().transfer().bytesReceived();
                ByteBuffer part = video.read(offset, length);
                print("partial.bytes", counted.bytes() - bytes);
                print("partial.reads", counted.reads() - reads);
                print("partial.stats.bytes", stream.stats().transfer().bytesReceived() - statsBytes);
                print("partial.length", part.remaining());
                print("partial.equal", part.equals(fileBytes(file, offset, length)));
                print("read.peak.heap", memory.peaks().heapBytes());
            }
            try (MemorySampler.Measurement memory = MemorySampler.start()) {
                long bytes = counted.bytes();
                print("stream.crc32c", crc32c(video));
                print("stream.bytes", counted.bytes() - bytes);
                print("stream.peak.heap", memory.peaks().heapBytes());
            }
        }
    }

    private static Sample sample(String name, Blob video) {
        Map<String, Blob> fields = new LinkedHashMap<>();
        fields.put("mp4", video);
        fields.put("json", Blob.of(("{\"name\": \"" + name + "\"}").getBytes(StandardCharsets.UTF_8)));
        return new Sample(new MetadataRow(SCHEMA, List.of(name, "clips")), fields);
    }

    private static ByteBuffer fileBytes(Path file, long offset, int length) throws IOException {
        ByteBuffer bytes = ByteBuffer.allocate(length);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            while (bytes.hasRemaining()) {
                if (channel.read(bytes, offset + bytes.position()) < 0) {
                    throw new IOException(file + " ends before " + (offset + length));
                }
            }
        }
        return bytes.flip();
    }

    /** The CRC32C of the blob's bytes, read through its stream (1 MiB reads: bounded memory). */
    private static long crc32c(Blob blob) throws IOException {
        CRC32C crc = new CRC32C();
        byte[] buffer = new byte[1 << 20];
        try (InputStream in = blob.openStream()) {
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                crc.update(buffer, 0, n);
            }
        }
        return crc.getValue();
    }

    private static void print(String name, Object value) {
        System.out.println(name + "=" + value);
        System.out.flush();
    }
}
