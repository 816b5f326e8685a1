package io.layoutbench.faults;

import static org.assertj.core.api.Assertions.assertThat;

import io.layoutbench.api.LayoutBenchException;
import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectBackends;
import io.layoutbench.api.backend.ObjectInfo;
import io.layoutbench.api.dataset.MetadataRow;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.api.layout.Dataset;
import io.layoutbench.api.layout.DatasetWriter;
import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.layout.RetrievalMode;
import io.layoutbench.api.layout.SampleStream;
import io.layoutbench.api.layout.StorageLayouts;
import io.layoutbench.api.metrics.RequestMetrics;
import io.layoutbench.api.predicate.ColumnarTable;
import io.layoutbench.api.predicate.Query;
import io.layoutbench.api.predicate.Selection;
import io.layoutbench.backend.memory.MemoryBackend;
import io.layoutbench.faults.FaultTally.Outcome;
import io.layoutbench.parquet.BackendInputFile;
import io.layoutbench.parquet.FetchOptions;
import io.layoutbench.parquet.ParquetObject;
import io.layoutbench.parquet.RowGroupInfo;
import io.layoutbench.s3.embedded.EmbeddedS3Server;

import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Fault injection: every layout (l1, l2, l3, fac) over every backend kind (memory, file, S3 on the embedded server),
 * with seeded random damage to every kind of object a dataset has (manifests, metadata tables, samples, tar shards,
 * Parquet parts, the fac descriptor, FAC blocks and location maps): a byte flipped, the object truncated, or deleted.
 * Each run damages one object, opens the dataset afresh (cold caches), runs a random query in a random mode, and
 * puts the object back. Every run must return exactly the right samples (those the predicate selects from the
 * samples written, in dataset order) or fail with a {@link LayoutBenchException} naming the damaged object; a wrong
 * answer, another exception type, or an error naming something else fails the suite.
 *
 * <p>Half the flips of a Parquet object land in what readers trust (footer, page indexes, metadata chunks), half
 * anywhere: most of a part is image bytes. Outcomes are counted as caught, repaired (FAC read parity or another
 * location-map replica), read but untrusted (a tar header, a chunk paper mode fetches for its cost), and not read.
 *
 * <p>Size: {@value #CI_RUNS} runs per backend and layout in CI (480 runs, about 20 s with the ingests). System
 * properties: {@code -Dlayoutbench.faults.long=true} runs {@value #LONG_RUNS} per backend and layout;
 * {@code -Dlayoutbench.faults.runs=N} and {@code -Dlayoutbench.faults.seed=S} set the count and the seed.
 */
@Timeout(value = 60, unit = TimeUnit.MINUTES)
class FaultInjectionTest {

    static final int CI_RUNS = 40;
    static final int LONG_RUNS = 2500;
    private static final int SAMPLES = 240;
    private static final long SEED = Long.getLong("layoutbench.faults.seed", 16);
    private static final int RUNS = Integer.getInteger("layoutbench.faults.runs",
            Boolean.getBoolean("layoutbench.faults.long") ? LONG_RUNS : CI_RUNS);
    private static final String[] LABELS = {"bagel", "canoe", "cello", "goldfish", "starfish", "tench", "tiger cat",
        "zebra"};
    private static final List<Query> QUERIES = Stream.of("label = 'tench'", "label = 'zebra'",
            "filesize_bytes > 5000", "width < 300 AND label IN ('cello', 'canoe')", "height >= 0 LIMIT 9",
            "filesize_bytes >= 0").map(Query::parse).toList();
    /** Small parts, row groups and shards, so that every dataset has several objects of each kind. */
    private static final Map<String, Map<String, String>> LAYOUTS = new LinkedHashMap<>();
    private static final Pattern FAC_BLOCK = Pattern.compile(".*/nodes/node-\\d+/blocks/(.+)\\.fac/[^/]+-s\\d+-b(\\d+)");
    private static final Pattern FAC_MAP = Pattern.compile(".*/nodes/node-\\d+/manifests/(.+)\\.facm");
    private static final FaultTally TALLY = new FaultTally();
    private static final ExecutorService QUERY_THREAD = Executors.newSingleThreadExecutor(r -> {
        Thread thread = new Thread(r, "fault-suite-query");
        thread.setDaemon(true);
        return thread;
    });

    static {
        LAYOUTS.put("l1", Map.of());
        LAYOUTS.put("l2", Map.of("shard-size", "64KB"));
        LAYOUTS.put("l3", Map.of("file-size", "256KB", "row-group-size", "64KB"));
        LAYOUTS.put("fac", Map.of("file-size", "256KB", "row-group-size", "64KB"));
    }

    /** The backend kinds a dataset is written to and damaged in. */
    enum BackendKind {
        MEMORY, FILE, S3
    }

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(BackendKind.class)
    void everyRunReturnsTheRightSamplesOrAnErrorNamingTheDamagedObject(BackendKind kind) throws Throwable {
        EmbeddedS3Server server = null;
        ObjectBackend backend;
        switch (kind) {
            case MEMORY -> backend = new MemoryBackend();
            case FILE -> backend = ObjectBackends.open("file:" + Files.createDirectories(dir.resolve("file")));
            case S3 -> {
                server = EmbeddedS3Server.start(Files.createDirectories(dir.resolve("s3")));
                server.createBucket("faults");
                backend = ObjectBackends.open(URI.create("s3://faults/suite"), server.backendProperties(),
                        RequestMetrics.NONE);
            }
            default -> throw new AssertionError(kind);
        }
        try {
            List<Sample> samples = samples(SEED, SAMPLES);
            Random random = new Random(SEED * 31 + kind.ordinal());
            for (Map.Entry<String, Map<String, String>> layout : LAYOUTS.entrySet()) {
                runLayout(kind.name().toLowerCase(Locale.ROOT), backend, layout.getKey(), layout.getValue(), samples,
                        random);
            }
        } finally {
            backend.close();
            if (server != null) {
                server.close();
            }
        }
        assertThat(TALLY.failures()).as("runs that returned wrong samples or a bad error").isEmpty();
    }

    @AfterAll
    static void printSummary() {
        System.out.println(TALLY.table(String.format(Locale.ROOT, "Fault injection (seed %d, %d runs per backend "
                + "and layout, %d samples per dataset)", SEED, RUNS, SAMPLES)));
        assertThat(TALLY.count(Outcome.CAUGHT)).as("runs caught").isPositive();
    }

    private void runLayout(String backendName, ObjectBackend base, String layout, Map<String, String> options,
            List<Sample> samples, Random random) throws Throwable {
        String prefix = "faults/" + layout;
        try (DatasetWriter writer = StorageLayouts.get(layout).create(base, prefix, MetadataSchema.imageNet(),
                options)) {
            samples.forEach(writer::add);
            writer.commit();
        }
        Map<Query, List<String>> expected = new LinkedHashMap<>();
        for (Query query : QUERIES) {
            expected.put(query, expected(query, samples));
        }
        ReadLog log = new ReadLog(base);
        for (Query query : QUERIES) {
            for (RetrievalMode mode : RetrievalMode.values()) {
                assertThat(query(log, layout, prefix, query, mode)).as("%s %s %s %s undamaged", backendName, layout,
                        query, mode).isEqualTo(expected.get(query));
            }
        }
        Map<String, List<Target>> targets = targets(base, prefix);
        List<String> kinds = new ArrayList<>(targets.keySet());
        for (int run = 0; run < RUNS; run++) {
            // Object kinds in turn, so that rare kinds (one manifest) are damaged as often as common ones (samples).
            List<Target> ofKind = targets.get(kinds.get((run + random.nextInt(kinds.size())) % kinds.size()));
            Target target = ofKind.get(random.nextInt(ofKind.size()));
            Damage damage = Damage.values()[random.nextInt(Damage.values().length)];
            Query query = QUERIES.get(random.nextInt(QUERIES.size()));
            RetrievalMode mode = RetrievalMode.values()[random.nextInt(RetrievalMode.values().length)];
            byte[] original = bytes(base.readAll(target.key()));
            Applied applied = damage.apply(base, target, original, random);
            log.clear();
            Outcome outcome;
            String detail;
            try {
                List<String> read = query(log, layout, prefix, query, mode);
                if (read.equals(expected.get(query))) {
                    outcome = readOutcome(log, target, applied);
                    detail = "";
                } else {
                    outcome = Outcome.WRONG;
                    detail = query + " in " + mode + " mode returned " + read.size() + " samples, expected "
                            + expected.get(query).size() + describeDifference(read, expected.get(query));
                }
            } catch (LayoutBenchException e) {
                outcome = names(e, target) ? Outcome.CAUGHT : Outcome.BAD_ERROR;
                detail = messages(e);
            } catch (Throwable e) {
                outcome = Outcome.BAD_ERROR;
                detail = e.toString() + " " + messages(e);
            } finally {
                base.put(target.key(), original);
            }
            TALLY.record(backendName, layout, target.kind(), target.key(), damage.describe(applied), outcome,
                    detail + " [" + query + ", " + mode + ", seed " + SEED + ", run " + run + "]");
        }
    }

    /** The samples a query returns, as fingerprints, read through a freshly opened dataset; bounded in time. */
    private static List<String> query(ObjectBackend backend, String layout, String prefix, Query query,
            RetrievalMode mode) throws Throwable {
        Future<List<String>> run = QUERY_THREAD.submit(() -> {
            try (Dataset dataset = StorageLayouts.get(layout).open(backend, prefix);
                 SampleStream samples = dataset.query(query, QueryOptions.defaults().withMode(mode))) {
                List<String> read = new ArrayList<>();
                samples.forEachRemaining(s -> read.add(fingerprint(s)));
                return read;
            }
        });
        try {
            return run.get(2, TimeUnit.MINUTES);
        } catch (ExecutionException e) {
            throw e.getCause();
        } catch (TimeoutException e) {
            run.cancel(true);
            throw new AssertionError("The query " + query + " on " + layout + " did not finish in 2 minutes");
        }
    }

    /** What a right answer that read {@code target} after {@code applied} says about the damage. */
    private static Outcome readOutcome(ReadLog log, Target target, Applied applied) {
        if (target.kind().startsWith("FAC")) {
            boolean parityRead = log.keysRead().stream().map(FAC_BLOCK::matcher)
                    .anyMatch(m -> m.matches() && Integer.parseInt(m.group(2)) >= 6);
            boolean replicaSkipped = log.keysRead().stream().filter(k -> FAC_MAP.matcher(k).matches())
                    .collect(java.util.stream.Collectors.groupingBy(k -> FAC_MAP.matcher(k).replaceAll("$1"),
                            java.util.stream.Collectors.counting())).values().stream().anyMatch(n -> n > 1);
            if (parityRead || replicaSkipped) {
                return Outcome.REPAIRED;
            }
        }
        for (ByteRange read : log.reads(target.key())) {
            if (read.offset() <= applied.position() && applied.position() < read.end()) {
                return Outcome.READ_UNTRUSTED;
            }
        }
        return Outcome.UNREAD;
    }

    /**
     * Whether the error names the damaged object: its key, or for a block or location map on a FAC node, the object
     * of the FAC store it belongs to (the store names that object, its stripe and node).
     */
    private static boolean names(Throwable error, Target target) {
        String messages = messages(error);
        if (messages.contains(target.key())) {
            return true;
        }
        Matcher block = FAC_BLOCK.matcher(target.key());
        Matcher map = FAC_MAP.matcher(target.key());
        return block.matches() && messages.contains(block.group(1)) || map.matches() && messages.contains(map.group(1));
    }

    private static String messages(Throwable error) {
        StringBuilder text = new StringBuilder();
        for (Throwable e = error; e != null; e = e.getCause()) {
            text.append(e.getClass().getSimpleName()).append(": ").append(e.getMessage()).append(" | ");
        }
        return text.toString();
    }

    private static String describeDifference(List<String> read, List<String> expected) {
        List<String> missing = new ArrayList<>(expected);
        missing.removeAll(read);
        List<String> extra = new ArrayList<>(read);
        extra.removeAll(expected);
        return "; missing " + missing.stream().limit(3).toList() + ", unexpected " + extra.stream().limit(3).toList();
    }

    /** Where a damage went: the position flipped, or the length an object was cut to (-1 for a deletion). */
    private record Applied(long position, int mask) {
    }

    /** How an object is damaged. */
    private enum Damage {
        FLIP, TRUNCATE, DELETE;

        Applied apply(ObjectBackend backend, Target target, byte[] original, Random random) {
            switch (this) {
                case FLIP -> {
                    if (original.length == 0) {
                        backend.delete(target.key());
                        return new Applied(-1, 0);
                    }
                    long position = target.trusted().isEmpty() || random.nextBoolean()
                            ? random.nextInt(original.length) : pick(target.trusted(), random);
                    int mask = 1 + random.nextInt(255);
                    byte[] damaged = original.clone();
                    damaged[(int) position] ^= (byte) mask;
                    backend.put(target.key(), damaged);
                    return new Applied(position, mask);
                }
                case TRUNCATE -> {
                    int length = original.length == 0 ? 0 : random.nextInt(original.length);
                    backend.put(target.key(), Arrays.copyOf(original, length));
                    return new Applied(length, 0);
                }
                case DELETE -> {
                    backend.delete(target.key());
                    return new Applied(0, 0);
                }
                default -> throw new AssertionError(this);
            }
        }

        String describe(Applied applied) {
            return name().toLowerCase(Locale.ROOT);
        }

        private static long pick(List<ByteRange> ranges, Random random) {
            ByteRange range = ranges.get(random.nextInt(ranges.size()));
            return range.offset() + (long) (random.nextDouble() * range.length());
        }
    }

    /**
     * One object of a dataset: its key, its kind, and for a Parquet object the regions readers trust (footer, page
     * indexes, metadata chunks), where half the flips go.
     */
    private record Target(String key, String kind, List<ByteRange> trusted) {
    }

    /** Every object under {@code prefix}, by kind. */
    private static Map<String, List<Target>> targets(ObjectBackend backend, String prefix) {
        Map<String, List<Target>> targets = new TreeMap<>();
        List<ObjectInfo> objects;
        try (Stream<ObjectInfo> listing = backend.list(prefix + "/")) {
            objects = listing.toList();
        }
        for (ObjectInfo object : objects) {
            String key = object.key();
            String kind;
            List<ByteRange> trusted = List.of();
            if (FAC_BLOCK.matcher(key).matches()) {
                kind = "FAC block";
            } else if (FAC_MAP.matcher(key).matches()) {
                kind = "FAC location map";
            } else if (key.endsWith("/_manifest.properties")) {
                kind = "dataset manifest";
            } else if (key.endsWith("/fac-layout.properties")) {
                kind = "fac descriptor";
            } else if (key.endsWith(".tar")) {
                kind = "tar shard";
            } else if (key.contains("/samples/")) {
                kind = "sample object";
            } else if (key.endsWith("metadata.parquet") || key.endsWith(".parquet")) {
                kind = key.endsWith("metadata.parquet") ? "metadata table" : "Parquet part";
                trusted = trustedRegions(backend, object);
            } else {
                throw new AssertionError("An object of no known kind: " + key);
            }
            targets.computeIfAbsent(kind, k -> new ArrayList<>()).add(new Target(key, kind, trusted));
        }
        return targets;
    }

    /** The regions of a Parquet object that readers trust: what {@code ParquetChecksums} covers. */
    private static List<ByteRange> trustedRegions(ObjectBackend backend, ObjectInfo object) {
        ParquetObject parquet = ParquetObject.open(new BackendInputFile(backend, object.key(), object.size(),
                FetchOptions.defaults()));
        List<ByteRange> regions = new ArrayList<>();
        regions.add(ByteRange.between(parquet.footer().footerRange().offset(), object.size()));
        parquet.footer().pageIndexRange().ifPresent(regions::add);
        for (RowGroupInfo group : parquet.footer().rowGroups()) {
            group.columns().stream().filter(c -> parquet.footer().columns().get(c.columnIndex()).type().isPresent())
                    .forEach(c -> regions.add(c.byteRange()));
        }
        return regions;
    }

    /** {@code count} small samples of the ImageNet schema, labels in runs as in a class-ordered dataset. */
    static List<Sample> samples(long seed, int count) {
        Random random = new Random(seed);
        List<Sample> samples = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            byte[] data = new byte[400 + random.nextInt(5600)];
            random.nextBytes(data);
            String label = random.nextInt(10) == 0 ? LABELS[random.nextInt(LABELS.length)]
                    : LABELS[i * LABELS.length / count];
            MetadataRow row = MetadataRow.of(MetadataSchema.imageNet(), Map.of(
                    "filename", String.format(Locale.ROOT, "img-%05d.jpg", i), "label", label,
                    "filesize_bytes", (long) data.length, "width", 100L + random.nextInt(900),
                    "height", 100L + random.nextInt(900)));
            samples.add(new Sample(row, ByteBuffer.wrap(data)));
        }
        return samples;
    }

    /** The fingerprints of the samples {@code query} selects, in the order they were written. */
    private static List<String> expected(Query query, List<Sample> samples) {
        ColumnarTable table = ColumnarTable.of(MetadataSchema.imageNet(), samples.stream().map(Sample::metadata)
                .toList());
        Selection rows = query.bind(MetadataSchema.imageNet()).select(table);
        return rows.stream().mapToObj(row -> fingerprint(samples.get(row))).toList();
    }

    private static String fingerprint(Sample sample) {
        CRC32C crc = new CRC32C();
        crc.update(sample.data().duplicate());
        return sample.filename() + ":" + sample.size() + ":" + Integer.toHexString((int) crc.getValue()) + ":"
                + sample.metadata().values();
    }

    private static byte[] bytes(ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return bytes;
    }
}
