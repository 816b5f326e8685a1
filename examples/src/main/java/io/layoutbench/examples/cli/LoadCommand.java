package io.layoutbench.examples.cli;

import io.layoutbench.api.dataset.Sample;
import io.layoutbench.api.predicate.PredicateException;
import io.layoutbench.api.predicate.Query;
import io.layoutbench.layouts.common.LayoutOptions;
import io.layoutbench.loader.CacheSettings;
import io.layoutbench.loader.DataLoader;
import io.layoutbench.loader.Epoch;
import io.layoutbench.loader.LoaderSettings;
import io.layoutbench.loader.LoaderState;
import io.layoutbench.loader.LoaderStats;
import io.layoutbench.loader.Shuffle;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code layoutbench load}: one rank of a distributed data loader over an ingested dataset, as a training job would
 * run it, with the yielded samples' names written to a file, a state saved as it goes, and resume from a state.
 */
@Command(name = "load",
        mixinStandardHelpOptions = true,
        subcommands = LoadBenchCommand.class,
        description = {
            "Run one rank of the data loader (layoutbench-loader) over a query of an ingested dataset: its share of "
                    + "the epoch, block-shuffled and buffer-shuffled by --seed, read through the simulated network "
                    + "of --profile. Prints samples, bytes, requests and samples/s; --list writes the samples' "
                    + "names in the order yielded; --state-out saves where the rank is, --resume continues there.",
            "'layoutbench load bench' compares loaders side by side.",
            ""},
        footer = {"", "Examples:",
            "  layoutbench load --scale tiny --rank 1 --world-size 4 --seed 7 --list /tmp/rank1.txt",
            "  layoutbench load --where \"human_label LIKE '%%cat'\" --stop-after 500 --state-out /tmp/s.state",
            "  layoutbench load --resume /tmp/s.state --list /tmp/rest.txt",
            "  layoutbench load bench --scale mini"})
final class LoadCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    LoaderDataset source = new LoaderDataset();

    @Option(names = "--where", paramLabel = "PREDICATE", defaultValue = "TRUE",
            description = "SQL predicate over the metadata, may end in LIMIT n. Default: the whole dataset.")
    String where;

    @Option(names = "--fields", paramLabel = "FIELD", split = ",",
            description = "Payload fields to read, comma-separated. Default: every field.")
    List<String> fields = new ArrayList<>();

    @Option(names = "--rank", paramLabel = "R", defaultValue = "0", description = "This rank. Default: 0.")
    int rank;

    @Option(names = "--world-size", paramLabel = "W", defaultValue = "1",
            description = "Ranks in the job. Default: 1.")
    int worldSize;

    @Option(names = "--epoch", paramLabel = "E", defaultValue = "0", description = "Epoch. Default: 0.")
    int epoch;

    @Option(names = "--epochs", paramLabel = "N", defaultValue = "1",
            description = "Epochs to run, from --epoch on (to see a cache's hit rate grow). Default: 1.")
    int epochs;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "0",
            description = "Seed of the shuffles; every rank of a job uses the same. Default: 0.")
    long seed;

    @Option(names = "--no-shuffle", description = "Dataset order: each rank reads a run of the result.")
    boolean noShuffle;

    @Option(names = "--shuffle-block", paramLabel = "SIZE", defaultValue = "0",
            description = "Bytes of a shuffled block, at least (blocks are whole coalesced reads; 0: each read a "
                    + "block). Default: ${DEFAULT-VALUE}.")
    String shuffleBlock;

    @Option(names = "--shuffle-buffer", paramLabel = "N", defaultValue = "" + Shuffle.DEFAULT_BUFFER_SAMPLES,
            description = "Samples in the shuffle buffer (0: blocks only). Default: ${DEFAULT-VALUE}.")
    int shuffleBuffer;

    @Option(names = "--sticky-shares",
            description = "Each rank keeps the same blocks every epoch (in a new order), so a local cache serves "
                    + "every epoch after the first.")
    boolean stickyShares;

    @Option(names = "--drop-last", description = "Drop the epoch's last samples mod world size: equal shares.")
    boolean dropLast;

    @Option(names = "--batch-size", paramLabel = "N", defaultValue = "32", description = "Default: 32.")
    int batchSize;

    @Option(names = "--prefetch", paramLabel = "SIZE", defaultValue = "64MB",
            description = "Bytes of blocks read ahead at most: as many blocks are read side by side as it holds. "
                    + "Default: ${DEFAULT-VALUE}.")
    String prefetch;

    @Option(names = "--cache-dir", paramLabel = "DIR", description = "A local cache of the samples read.")
    Path cacheDir;

    @Option(names = "--cache-size", paramLabel = "SIZE", defaultValue = "10GB",
            description = "Bytes the cache holds at most. Default: ${DEFAULT-VALUE}.")
    String cacheSize;

    @Option(names = "--list", paramLabel = "FILE",
            description = "Write the yielded samples' names (filename column), one a line, in order.")
    Path list;

    @Option(names = "--stop-after", paramLabel = "N",
            description = "Stop after N samples of the epoch (counted from its start, a resumed run's included).")
    Long stopAfter;

    @Option(names = "--state-out", paramLabel = "FILE",
            description = "Save the loader's state there when stopping (and every --state-every samples).")
    Path stateOut;

    @Option(names = "--state-every", paramLabel = "N",
            description = "Save the state every N samples, the --list file flushed first, as a training job "
                    + "checkpoints.")
    Long stateEvery;

    @Option(names = "--resume", paramLabel = "FILE",
            description = "Continue from a saved state: its query, seed, epoch, rank, world size and shuffle apply.")
    Path resume;

    @Option(names = "--resume-elastic", paramLabel = "FILE", split = ",",
            description = "Continue an epoch with another world size: the state files of every rank of the earlier "
                    + "world, comma-separated; this rank's --rank and --world-size are the new ones.")
    List<Path> resumeElastic = new ArrayList<>();

    @Override
    public Integer call() {
        PrintWriter console = spec.commandLine().getOut();
        if ((stopAfter != null && stopAfter < 0) || (stateEvery != null && stateEvery < 1) || epochs < 1) {
            throw new ParameterException(spec.commandLine(), "--stop-after must be >= 0, --state-every and --epochs "
                    + ">= 1");
        }
        if (resume != null && !resumeElastic.isEmpty()) {
            throw new ParameterException(spec.commandLine(), "--resume and --resume-elastic exclude each other");
        }
        LoaderState resumed = null;
        List<LoaderState> earlier = new ArrayList<>();
        try {
            if (resume != null) {
                resumed = LoaderState.read(resume);
            }
            for (Path file : resumeElastic) {
                earlier.add(LoaderState.read(file));
            }
        } catch (IllegalArgumentException | UncheckedIOException e) {
            throw new ParameterException(spec.commandLine(), "Invalid --resume: " + e.getMessage());
        }
        if (!earlier.isEmpty()) {
            resumed = earlier.get(0);
        }
        Query query = null;
        if (resumed == null) {
            try {
                query = Query.parse(where);
            } catch (PredicateException e) {
                throw new ParameterException(spec.commandLine(), "Invalid --where: " + e.getMessage());
            }
        }
        LoaderSettings settings;
        try {
            settings = LoaderSettings.defaults().withRank(rank, worldSize).withSeed(seed).withShuffle(shuffle())
                    .withDropLast(dropLast).withBatchSize(batchSize)
                    .withPrefetchBytes(LayoutOptions.parseSize("--prefetch", prefetch))
                    .withCache(cacheDir == null ? null : new CacheSettings(cacheDir,
                            LayoutOptions.parseSize("--cache-size", cacheSize)));
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        try (LoaderDataset.Opened opened = resumed == null ? source.open(spec) : source.open(spec, resumed)) {
            DataLoader loader;
            try {
                if (resumed == null) {
                    loader = DataLoader.open(opened.dataset(), query, source.queryOptions(fields), settings);
                } else if (earlier.isEmpty()) {
                    loader = DataLoader.forState(opened.dataset(), resumed, source.queryOptions(List.of()), settings);
                } else {
                    // The job's settings from the earlier world's states; this rank and world size from the options.
                    loader = DataLoader.open(opened.dataset(), Query.parse(resumed.query()),
                            source.queryOptions(resumed.fields()), settings.withSeed(resumed.seed())
                                    .withShuffle(resumed.shuffle()).withDropLast(resumed.dropLast()));
                }
            } catch (PredicateException e) {
                throw new ParameterException(spec.commandLine(), "Invalid --where: " + e.getMessage());
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), e.getMessage());
            }
            int first = resumed == null ? epoch : resumed.epoch();
            try (BufferedWriter names = list == null ? null : Files.newBufferedWriter(list, StandardCharsets.UTF_8)) {
                for (int e = first; e < first + epochs; e++) {
                    long started = System.nanoTime();   // a resume's re-read of the buffer counts too
                    Epoch running;
                    try {
                        if (resumed != null && e == first) {
                            running = earlier.isEmpty() ? loader.resume(resumed) : loader.resumeElastic(earlier);
                        } else {
                            running = loader.epoch(e);
                        }
                    } catch (IllegalArgumentException ex) {
                        throw new ParameterException(spec.commandLine(), "Invalid --resume: " + ex.getMessage());
                    }
                    try (Epoch current = running) {
                        run(console, loader, current, names, started);
                    }
                    if (stopAfter != null) {
                        break;
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot write " + list + ": " + e.getMessage(), e);
            }
        }
        return 0;
    }

    private Shuffle shuffle() {
        long block = shuffleBlock.strip().equals("0") ? 0 : LayoutOptions.parseSize("--shuffle-block", shuffleBlock);
        if (noShuffle) {
            return Shuffle.none();
        }
        return Shuffle.blocks(block, shuffleBuffer).withStickyShares(stickyShares);
    }

    private void run(PrintWriter console, DataLoader loader, Epoch epoch, BufferedWriter names, long started)
            throws IOException {
        long startPosition = epoch.position();
        long end = stopAfter == null ? epoch.size() : Math.min(epoch.size(), stopAfter);
        long nextState = stateEvery == null ? Long.MAX_VALUE : (epoch.position() / stateEvery + 1) * stateEvery;
        while (epoch.hasNext() && epoch.position() < end) {
            long room = Math.min(end, nextState) - epoch.position();
            for (Sample sample : epoch.next((int) Math.min(Integer.MAX_VALUE, room))) {
                if (names != null) {
                    names.write(name(sample));
                    names.write('\n');
                }
            }
            if (epoch.position() >= nextState && epoch.position() < end) {
                if (names != null) {
                    names.flush();
                }
                if (stateOut != null) {
                    epoch.state().write(stateOut);
                    console.println("State saved after " + epoch.position() + " samples to " + stateOut);
                    console.flush();
                }
                nextState += stateEvery;
            }
        }
        if (names != null) {
            names.flush();
        }
        if (stateOut != null) {
            epoch.state().write(stateOut);
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        report(console, loader, epoch, epoch.position() - startPosition, seconds);
    }

    /** The sample's {@code filename}, or its first column's value in a schema without one. */
    static String name(Sample sample) {
        if (sample.metadata().schema().indexOf("filename").isPresent()) {
            return sample.filename();
        }
        return String.valueOf(sample.metadata().get(0));
    }

    private void report(PrintWriter console, DataLoader loader, Epoch epoch, long yielded, double seconds) {
        LoaderStats stats = epoch.stats();
        LoaderSettings s = loader.settings();
        console.printf(Locale.ROOT, "Rank %d of %d, epoch %d: %d of its %d samples (%s) yielded%s in %.3f s, "
                + "%.0f samples/s%n", s.rank(), s.worldSize(), epoch.epoch(), yielded, epoch.size(),
                megabytes(stats.payloadBytes()), epoch.position() > yielded ? " (resumed at " + (epoch.position()
                        - yielded) + ")" : "", seconds, yielded / Math.max(seconds, 1e-9));
        console.printf(Locale.ROOT, "  read %s in %d requests (%d block reads) of a result of %d samples in %d "
                + "blocks; shuffle %s, seed %d%n", megabytes(stats.bytesRead()), stats.requests(), stats.reads(),
                loader.prepared().samples(), loader.blockCount(), s.shuffle(), s.seed());
        if (s.cache() != null) {
            console.printf(Locale.ROOT, "  cache: %d hits, %d misses, hit rate %.3f%n", stats.cacheHits(),
                    stats.cacheMisses(), stats.cacheHitRate());
        }
        if (stats.reReadSamples() > 0) {
            console.printf(Locale.ROOT, "  resume re-read %d samples (%s) that the shuffle buffer held%n",
                    stats.reReadSamples(), megabytes(stats.reReadBytes()));
        }
        if (stateOut != null) {
            console.println("  state saved to " + stateOut + " at sample " + epoch.position());
        }
        console.flush();
    }

    static String megabytes(long bytes) {
        return String.format(Locale.ROOT, "%.3f MB", bytes / 1e6);
    }
}
