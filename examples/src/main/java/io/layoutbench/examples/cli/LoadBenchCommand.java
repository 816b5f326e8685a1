package io.layoutbench.examples.cli;

import io.layoutbench.api.dataset.Sample;
import io.layoutbench.api.layout.PlannedRequest;
import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.layout.ResultRange;
import io.layoutbench.api.layout.RetrievalPlan;
import io.layoutbench.api.predicate.Query;
import io.layoutbench.evaluation.paper.PaperQueries;
import io.layoutbench.loader.CacheSettings;
import io.layoutbench.loader.DataLoader;
import io.layoutbench.loader.DecodedBatches;
import io.layoutbench.loader.Epoch;
import io.layoutbench.loader.LoaderSettings;
import io.layoutbench.loader.LoaderState;
import io.layoutbench.loader.LoaderStats;
import io.layoutbench.loader.Shuffle;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.zip.CRC32C;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import org.apache.commons.io.file.PathUtils;

/**
 * {@code layoutbench load bench}: the data loader measured side by side with what it replaces and across its knobs,
 * on one dataset: per-rank bytes and requests for several world sizes against every rank reading the whole result
 * and skipping the others' samples; samples/s per rank with 1, 2 and 4 workers; shuffle quality against requests;
 * bytes re-read on resume; cache hit rates per epoch.
 */
@Command(name = "bench",
        mixinStandardHelpOptions = true,
        description = {
            "Measure the data loader on an ingested dataset (default: the synthetic ImageNet at mini in l2, read "
                    + "through t3.medium): sections split, workers, shuffle, resume and cache (--sections).",
            ""},
        footer = {"", "Example:", "  layoutbench load bench --scale mini --layout l2 --sections split,shuffle"})
final class LoadBenchCommand implements Callable<Integer> {

    private static final List<String> SECTIONS = List.of("split", "workers", "shuffle", "resume", "cache");

    @Spec
    CommandSpec spec;

    @Mixin
    LoaderDataset source = new LoaderDataset();

    @Option(names = "--sections", paramLabel = "NAME", split = ",", defaultValue = "split,workers,shuffle,resume,cache",
            description = "Sections to run: split, workers, shuffle, resume, cache. Default: all.")
    List<String> sections;

    @Option(names = "--world-sizes", paramLabel = "W", split = ",", defaultValue = "1,2,4,8,16",
            description = "World sizes of the split section. Default: ${DEFAULT-VALUE}.")
    List<Integer> worldSizes;

    @Option(names = "--label-column", paramLabel = "COLUMN", defaultValue = "label",
            description = "The class column, for shuffle quality. Default: ${DEFAULT-VALUE}.")
    String labelColumn;

    @Option(names = "--batch-size", paramLabel = "N", defaultValue = "256",
            description = "Batch size of the shuffle-quality section. Default: ${DEFAULT-VALUE}.")
    int batchSize;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "1", description = "Loader seed. Default: 1.")
    long seed;

    @Override
    public Integer call() {
        for (String section : sections) {
            if (!SECTIONS.contains(section)) {
                throw new ParameterException(spec.commandLine(), "Unknown section '" + section + "'; sections are "
                        + SECTIONS);
            }
        }
        PrintWriter out = spec.commandLine().getOut();
        try (LoaderDataset.Opened opened = source.open(spec)) {
            out.printf(Locale.ROOT, "Loader bench: %s dataset at %s, %d samples, mode %s, profile %s%n%n",
                    opened.layout().name(), opened.prefix(), opened.dataset().summary().sampleCount(),
                    source.read.mode.label(), source.read.profile.name());
            QueryOptions options = source.queryOptions(List.of());
            if (sections.contains("split")) {
                split(out, opened, options);
            }
            if (sections.contains("workers")) {
                workers(out, opened, options);
            }
            if (sections.contains("shuffle")) {
                shuffle(out, opened, options);
            }
            if (sections.contains("resume")) {
                resume(out, opened, options);
            }
            if (sections.contains("cache")) {
                cache(out, opened, options);
            }
        }
        return 0;
    }

    private static Map<String, Query> queries() {
        Map<String, Query> queries = new java.util.LinkedHashMap<>();
        queries.put("Q8", Query.parse(PaperQueries.get("Q8").sql()));
        queries.put("all", Query.parse("TRUE"));
        return queries;
    }

    /** Per-rank bytes and requests of the loader against read-everything-and-skip, for each world size. */
    private void split(PrintWriter out, LoaderDataset.Opened opened, QueryOptions options) {
        out.println("Split: per-rank bytes and requests, epoch 0, default shuffle (read-unit blocks, 1024-sample "
                + "buffer), "
                + "against every rank reading the whole result and skipping the others' samples (its plan)");
        out.printf(Locale.ROOT, "%-5s %4s %9s %12s %12s %9s %9s %12s %9s %8s %8s %8s%n", "query", "W",
                "samples/r", "MB/r mean", "MB/r max", "req mean", "req max", "skip MB/r", "skip req", "bytes x",
                "B/pay", "req/1rd");
        for (Map.Entry<String, Query> q : queries().entrySet()) {
            for (int world : worldSizes) {
                long[] bytes = new long[world];
                long[] requests = new long[world];
                long samples = 0;
                double worstAmplification = 0;
                double worstRequests = 0;
                RetrievalPlan whole = null;
                for (int rank = 0; rank < world; rank++) {
                    DataLoader loader = DataLoader.open(opened.dataset(), q.getValue(), options,
                            LoaderSettings.defaults().withRank(rank, world).withSeed(seed));
                    whole = whole != null ? whole : loader.prepared().plan(loader.prepared().all());
                    LoaderStats stats = drain(loader, 0);
                    bytes[rank] = stats.bytesRead();
                    requests[rank] = stats.requests();
                    samples = Math.max(samples, stats.samples());
                    if (stats.samples() > 0) {
                        RetrievalPlan single = loader.prepared().plan(ResultRange.sortedAndJoined(loader.share(0)));
                        worstAmplification = Math.max(worstAmplification,
                                (double) stats.bytesRead() / stats.payloadBytes());
                        worstRequests = Math.max(worstRequests,
                                (double) stats.requests() / single.dataRequests().size());
                    }
                }
                long skipBytes = whole.dataRequests().stream().mapToLong(PlannedRequest::bytes).sum();
                out.printf(Locale.ROOT, "%-5s %4d %9d %12.2f %12.2f %9.0f %9d %12.2f %9d %8.1f %8.3f %8.3f%n",
                        q.getKey(), world, samples, mean(bytes) / 1e6, max(bytes) / 1e6, mean(requests),
                        max(requests), skipBytes / 1e6, whole.dataRequests().size(), skipBytes / mean(bytes),
                        worstAmplification, worstRequests);
                out.flush();
            }
        }
        out.println("  samples/r: the largest share; bytes x: skip bytes over the loader's mean per rank; B/pay: a "
                + "rank's bytes over its payload, worst rank; req/1rd: a rank's requests over one optimized reader "
                + "of the same samples, worst rank");
        out.println();
    }

    /**
     * Samples/s per rank with 1, 2 and 4 workers, for two decoders: a CRC32C of the sample (what checking costs) and a
     * JPEG decode with ImageIO (the synthetic samples are not real images, so each decodes a real 500x375 JPEG of
     * about their size instead, after the CRC32C).
     */
    private void workers(PrintWriter out, LoaderDataset.Opened opened, QueryOptions options) {
        out.println("Workers: rank 0 of 4, the whole dataset, batches of 32, decoded on the workers; real time through "
                + source.read.profile.name() + ", " + Runtime.getRuntime().availableProcessors() + " cores");
        out.printf(Locale.ROOT, "%-8s %-8s %10s %10s %12s %10s%n", "decoder", "workers", "samples", "seconds",
                "samples/s", "MB/s");
        byte[] jpeg = standInJpeg();
        Map<String, DecodedBatches.Decoder<Long>> decoders = new java.util.LinkedHashMap<>();
        decoders.put("crc32c", LoadBenchCommand::crc);
        decoders.put("jpeg", sample -> {
            javax.imageio.ImageIO.read(new java.io.ByteArrayInputStream(jpeg));
            return crc(sample);
        });
        for (Map.Entry<String, DecodedBatches.Decoder<Long>> decoder : decoders.entrySet()) {
            for (int workers : List.of(1, 2, 4)) {
                DataLoader loader = DataLoader.open(opened.dataset(), Query.parse("TRUE"), options,
                        LoaderSettings.defaults().withRank(0, 4).withSeed(seed).withWorkers(workers));
                long started = System.nanoTime();
                long samples = 0;
                long bytes;
                try (Epoch epoch = loader.epoch(0);
                        DecodedBatches<Long> decoded = epoch.decoded(decoder.getValue())) {
                    while (decoded.hasNext()) {
                        samples += decoded.next().size();
                    }
                    bytes = epoch.stats().payloadBytes();
                }
                double seconds = (System.nanoTime() - started) / 1e9;
                out.printf(Locale.ROOT, "%-8s %-8d %10d %10.3f %12.0f %10.1f%n", decoder.getKey(), workers, samples,
                        seconds, samples / seconds, bytes / 1e6 / seconds);
                out.flush();
            }
        }
        out.println();
    }

    /** A 500x375 noisy JPEG, about the size of an ImageNet image. */
    private static byte[] standInJpeg() {
        java.awt.image.BufferedImage image = new java.awt.image.BufferedImage(500, 375,
                java.awt.image.BufferedImage.TYPE_INT_RGB);
        Random random = new Random(1);
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                int base = (x / 25 + y / 25) % 2 == 0 ? 0x606060 : 0xa0a0a0;
                image.setRGB(x, y, base + (random.nextInt(64) << 16) + (random.nextInt(64) << 8) + random.nextInt(64));
            }
        }
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        try {
            javax.imageio.ImageIO.write(image, "jpg", bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    private static long crc(Sample sample) {
        CRC32C crc = new CRC32C();
        sample.fields().values().forEach(blob -> crc.update(blob.readAll()));
        return crc.getValue();
    }

    /** Shuffle quality (label distance of batches from the dataset) against requests, for the knobs' settings. */
    private void shuffle(PrintWriter out, LoaderDataset.Opened opened, QueryOptions options) {
        if (opened.dataset().schema().indexOf(labelColumn).isEmpty()) {
            throw new ParameterException(spec.commandLine(), "The dataset has no column '" + labelColumn
                    + "' (--label-column); its columns: " + opened.dataset().schema().describeColumns());
        }
        out.println("Shuffle: world 1, the whole dataset, batches of " + batchSize + "; distance = total variation "
                + "between a batch's label distribution and the dataset's, mean over batches (0: as mixed as the "
                + "dataset; 1: disjoint)");
        out.printf(Locale.ROOT, "%-30s %8s %10s %10s %10s %10s%n", "shuffle", "blocks", "distance", "classes",
                "requests", "MB read");
        List<Shuffle> settings = new ArrayList<>();
        settings.add(Shuffle.none());
        for (long block : List.of(64L << 20, 8L << 20, 1L << 20, 0L)) {
            for (int buffer : List.of(0, 256, 1024)) {
                settings.add(Shuffle.blocks(block, buffer));
            }
        }
        List<String> allLabels = null;
        for (Shuffle shuffle : settings) {
            DataLoader loader = DataLoader.open(opened.dataset(), Query.parse("TRUE"), options,
                    LoaderSettings.defaults().withSeed(seed).withShuffle(shuffle).withBatchSize(batchSize));
            List<String> labels = new ArrayList<>();
            LoaderStats stats;
            try (Epoch epoch = loader.epoch(0)) {
                while (epoch.hasNext()) {
                    for (Sample sample : epoch.next()) {
                        labels.add(String.valueOf(sample.metadata().get(labelColumn)));
                    }
                }
                stats = epoch.stats();
            }
            allLabels = allLabels == null ? labels : allLabels;
            out.printf(Locale.ROOT, "%-30s %8d %10.3f %10.1f %10d %10.1f%n", shuffle, loader.blockCount(),
                    distance(labels, batchSize), classes(labels, batchSize), stats.requests(),
                    stats.bytesRead() / 1e6);
            out.flush();
        }
        List<String> uniform = new ArrayList<>(allLabels);
        Collections.shuffle(uniform, new Random(seed));
        out.printf(Locale.ROOT, "%-30s %8s %10.3f %10.1f %10s %10s%n", "uniform random (reference)", "-",
                distance(uniform, batchSize), classes(uniform, batchSize), "-", "-");
        out.println("  classes: distinct labels in a batch, mean over batches");
        out.println();
    }

    /** Mean over batches of the total variation distance between a batch's labels and all labels. */
    static double distance(List<String> labels, int batch) {
        Map<String, Integer> all = new HashMap<>();
        labels.forEach(l -> all.merge(l, 1, Integer::sum));
        double sum = 0;
        int batches = 0;
        for (int from = 0; from + batch <= labels.size(); from += batch) {
            Map<String, Integer> counts = new HashMap<>();
            labels.subList(from, from + batch).forEach(l -> counts.merge(l, 1, Integer::sum));
            double tv = 0;
            for (Map.Entry<String, Integer> label : all.entrySet()) {
                double p = (double) label.getValue() / labels.size();
                double q = (double) counts.getOrDefault(label.getKey(), 0) / batch;
                tv += Math.abs(p - q);
            }
            sum += tv / 2;
            batches++;
        }
        return batches == 0 ? 0 : sum / batches;
    }

    /** Mean over whole batches of the number of distinct labels in a batch. */
    static double classes(List<String> labels, int batch) {
        long sum = 0;
        int batches = 0;
        for (int from = 0; from + batch <= labels.size(); from += batch) {
            sum += new java.util.HashSet<>(labels.subList(from, from + batch)).size();
            batches++;
        }
        return batches == 0 ? 0 : (double) sum / batches;
    }

    /** Bytes re-read when resuming at half an epoch, per buffer size; the resumed tail checked. */
    private void resume(PrintWriter out, LoaderDataset.Opened opened, QueryOptions options) {
        out.println("Resume: rank 0 of 2, Q8 and the whole dataset, stopped at half its share, resumed from the saved "
                + "state by a new loader; the resumed samples compared with an uninterrupted run");
        out.printf(Locale.ROOT, "%-5s %-30s %10s %12s %12s %10s%n", "query", "shuffle", "stopped at",
                "re-read", "re-read MB", "tail same");
        for (Map.Entry<String, Query> q : queries().entrySet()) {
            for (Shuffle shuffle : List.of(Shuffle.none(), Shuffle.blocks(0, 0), Shuffle.blocks(0, 256),
                    Shuffle.blocks(0, 1024))) {
                LoaderSettings settings = LoaderSettings.defaults().withRank(0, 2).withSeed(seed)
                        .withShuffle(shuffle);
                DataLoader loader = DataLoader.open(opened.dataset(), q.getValue(), options, settings);
                List<String> uninterrupted = names(loader, null, Long.MAX_VALUE);
                long stop = uninterrupted.size() / 2;
                LoaderState[] saved = new LoaderState[1];
                names(loader, saved, stop);
                DataLoader fresh = DataLoader.forState(opened.dataset(), LoaderState.parse(saved[0].toText()),
                        options, LoaderSettings.defaults());
                List<String> tail = new ArrayList<>();
                LoaderStats stats;
                try (Epoch epoch = fresh.resume(saved[0])) {
                    while (epoch.hasNext()) {
                        epoch.next().forEach(s -> tail.add(LoadCommand.name(s)));
                    }
                    stats = epoch.stats();
                }
                boolean same = tail.equals(uninterrupted.subList((int) stop, uninterrupted.size()));
                out.printf(Locale.ROOT, "%-5s %-30s %10d %12d %12.2f %10s%n", q.getKey(), shuffle, stop,
                        stats.reReadSamples(), stats.reReadBytes() / 1e6, same ? "yes" : "NO");
                out.flush();
            }
        }
        out.println();
    }

    private static List<String> names(DataLoader loader, LoaderState[] state, long stop) {
        List<String> names = new ArrayList<>();
        try (Epoch epoch = loader.epoch(0)) {
            while (epoch.hasNext() && epoch.position() < stop) {
                epoch.next((int) Math.min(Integer.MAX_VALUE, stop - epoch.position()))
                        .forEach(s -> names.add(LoadCommand.name(s)));
            }
            if (state != null) {
                state[0] = epoch.state();
            }
        }
        return names;
    }

    /** Hit rates over three epochs, with a cache holding the share and half of it. */
    private void cache(PrintWriter out, LoaderDataset.Opened opened, QueryOptions options) {
        out.println("Cache: three epochs of the whole dataset, default shuffle, shares permuted across ranks each "
                + "epoch or sticky; a cache of 110% and 50% of the rank's share (a fresh directory each)");
        out.printf(Locale.ROOT, "%-10s %-8s %-8s %10s %10s %10s %14s%n", "rank", "shares", "cache", "epoch 0",
                "epoch 1", "epoch 2", "MB read e2");
        Path root;
        try {
            root = Files.createTempDirectory("layoutbench-loader-cache");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            // A single rank's share is the whole result: sticky or not, it keeps it.
            List<int[]> configs = List.of(new int[] {1, 0}, new int[] {4, 0}, new int[] {4, 1});
            for (int[] config : configs) {
                int world = config[0];
                boolean sticky = config[1] == 1;
                for (double fraction : List.of(1.1, 0.5)) {
                    LoaderSettings probe = LoaderSettings.defaults().withRank(0, world).withSeed(seed)
                            .withShuffle(Shuffle.defaults().withStickyShares(sticky));
                    DataLoader sizing = DataLoader.open(opened.dataset(), Query.parse("TRUE"), options, probe);
                    long share = (long) (sizing.prepared().payloadBytes() / (double) world);
                    Path dir = root.resolve(world + "-" + sticky + "-" + fraction);
                    DataLoader loader = DataLoader.open(opened.dataset(), Query.parse("TRUE"), options,
                            probe.withCache(new CacheSettings(dir, (long) (share * fraction))));
                    double[] rates = new double[3];
                    long lastBytes = 0;
                    for (int e = 0; e < 3; e++) {
                        LoaderStats stats = drain(loader, e);
                        rates[e] = stats.cacheHitRate();
                        lastBytes = stats.bytesRead();
                    }
                    out.printf(Locale.ROOT, "%-10s %-8s %-8s %10.3f %10.3f %10.3f %14.1f%n", "0 of " + world,
                            sticky ? "sticky" : "moving", Math.round(fraction * 100) + "%", rates[0], rates[1],
                            rates[2], lastBytes / 1e6);
                    out.flush();
                }
            }
        } finally {
            deleteCache(root);
        }
        out.println();
    }

    private static LoaderStats drain(DataLoader loader, int epochNumber) {
        try (Epoch epoch = loader.epoch(epochNumber)) {
            while (epoch.hasNext()) {
                epoch.next();
            }
            return epoch.stats();
        }
    }

    private static double mean(long[] values) {
        long sum = 0;
        for (long v : values) {
            sum += v;
        }
        return values.length == 0 ? 0 : (double) sum / values.length;
    }

    private static long max(long[] values) {
        long max = 0;
        for (long v : values) {
            max = Math.max(max, v);
        }
        return max;
    }

    private static void deleteCache(Path root) {
        try {
            PathUtils.deleteDirectory(root);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot delete the bench's cache " + root + ": " + e.getMessage(), e);
        }
    }
}
