package io.layoutbench.examples;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.api.layout.Dataset;
import io.layoutbench.api.layout.DatasetWriter;
import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.layout.StorageLayout;
import io.layoutbench.api.layout.StorageLayouts;
import io.layoutbench.api.predicate.Query;
import io.layoutbench.backend.memory.MemoryBackend;
import io.layoutbench.datasets.synthetic.ImageNetScale;
import io.layoutbench.datasets.synthetic.SyntheticImageNet;
import io.layoutbench.loader.DataLoader;
import io.layoutbench.loader.Epoch;
import io.layoutbench.loader.LoaderSettings;
import io.layoutbench.loader.LoaderState;
import io.layoutbench.loader.LoaderStats;
import io.layoutbench.loader.Shuffle;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Feeding distributed data-parallel training from a query with {@code layoutbench-loader}: every rank
 * ({@code rank} of {@code worldSize}) builds the same {@link DataLoader} and reads only its own share of each epoch,
 * block-shuffled and buffer-shuffled by the job's seed, without talking to the other ranks. Halfway through an
 * epoch a rank saves its {@link LoaderState} (as a checkpoint would) and a new loader, as after a restart, resumes
 * from it with exactly the samples an uninterrupted one would have yielded.
 *
 * <p>Arguments: {@code [rank worldSize batchSize]}; with none, it plays all ranks of a world of 4, one after the
 * other, and checks that together they read the result once.
 */
public final class DataLoaderExample {

    private DataLoaderExample() {
    }

    public static void main(String[] args) {
        int batchSize = args.length >= 3 ? Integer.parseInt(args[2]) : 16;
        Query query = Query.parse("CAST(width AS DOUBLE) / CAST(height AS DOUBLE) > 1.5");   // the paper's Q8
        try (ObjectBackend backend = new MemoryBackend()) {
            StorageLayout l2 = StorageLayouts.get("l2");
            ingestTiny(backend, l2, "imagenet-tiny/l2");
            try (Dataset dataset = l2.open(backend, "imagenet-tiny/l2")) {
                if (args.length >= 2) {
                    train(dataset, query, Integer.parseInt(args[0]), Integer.parseInt(args[1]), batchSize);
                    return;
                }
                int worldSize = 4;
                Set<String> seen = new HashSet<>();
                long total = 0;
                for (int rank = 0; rank < worldSize; rank++) {
                    for (String name : train(dataset, query, rank, worldSize, batchSize)) {
                        seen.add(name);
                        total++;
                    }
                }
                long matching = dataset.plan(query, QueryOptions.defaults()).samples();
                System.out.printf("%d ranks read %d samples, %d distinct, of %d matching: each once%n", worldSize,
                        total, seen.size(), matching);
            }
        }
    }

    /** One rank's epoch 0 (stopped halfway and resumed) and epoch 1; returns the names of its epoch-0 samples. */
    static List<String> train(Dataset dataset, Query query, int rank, int worldSize, int batchSize) {
        LoaderSettings settings = LoaderSettings.defaults().withRank(rank, worldSize).withSeed(2024)
                .withShuffle(Shuffle.blocks(1L << 20, 64)).withBatchSize(batchSize);
        DataLoader loader = DataLoader.open(dataset, query, QueryOptions.defaults(), settings);
        java.util.ArrayList<String> names = new java.util.ArrayList<>();
        LoaderState checkpoint;
        try (Epoch epoch = loader.epoch(0)) {
            System.out.printf("rank %d/%d: %d of %d matching samples an epoch, %d blocks%n", rank, worldSize,
                    epoch.size(), loader.prepared().samples(), loader.blockCount());
            while (epoch.hasNext() && epoch.position() < epoch.size() / 2) {
                List<Sample> batch = epoch.next();
                // A real loop would decode the JPEGs and run a training step here.
                batch.forEach(s -> names.add(s.filename()));
            }
            checkpoint = epoch.state();   // saved with the model: checkpoint.write(path)
        }
        System.out.printf("rank %d/%d: checkpoint after %d samples: %s%n", rank, worldSize, checkpoint.position(),
                checkpoint.toText().lines().filter(l -> l.startsWith("position") || l.startsWith("epoch"))
                        .toList());
        // After a restart: a loader from the state alone continues the epoch where it stopped.
        DataLoader restarted = DataLoader.forState(dataset, checkpoint, QueryOptions.defaults(),
                LoaderSettings.defaults().withBatchSize(batchSize));
        LoaderStats resumed;
        try (Epoch epoch = restarted.resume(checkpoint)) {
            while (epoch.hasNext()) {
                epoch.next().forEach(s -> names.add(s.filename()));
            }
            resumed = epoch.stats();
        }
        System.out.printf("rank %d/%d: resumed, %d samples more; %d re-read from the shuffle buffer (%d bytes)%n",
                rank, worldSize, resumed.samples(), resumed.reReadSamples(), resumed.reReadBytes());
        try (Epoch next = restarted.epoch(1)) {
            List<Sample> first = next.next();
            System.out.printf("rank %d/%d: epoch 1 starts with %s (another order)%n", rank, worldSize,
                    first.get(0).filename());
        }
        return names;
    }

    private static void ingestTiny(ObjectBackend backend, StorageLayout layout, String prefix) {
        try (DatasetWriter writer = layout.create(backend, prefix, MetadataSchema.imageNet(), Map.of());
                Stream<Sample> samples = SyntheticImageNet.of(ImageNetScale.TINY, 42L, false).samples()) {
            Iterator<Sample> iterator = samples.iterator();
            while (iterator.hasNext()) {
                writer.add(iterator.next());
            }
            writer.commit();
        }
    }
}
