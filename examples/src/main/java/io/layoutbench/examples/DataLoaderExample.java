package io.layoutbench.examples;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.api.layout.Dataset;
import io.layoutbench.api.layout.DatasetWriter;
import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.layout.ResultOrder;
import io.layoutbench.api.layout.SampleStream;
import io.layoutbench.api.layout.StorageLayout;
import io.layoutbench.api.layout.StorageLayouts;
import io.layoutbench.api.network.NetworkProfiles;
import io.layoutbench.api.predicate.Query;
import io.layoutbench.backend.memory.MemoryBackend;
import io.layoutbench.datasets.synthetic.ImageNetScale;
import io.layoutbench.datasets.synthetic.SyntheticImageNet;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.stream.Stream;

/**
 * Feeding a training loop from a query, the way distributed data-parallel training splits a dataset: every worker
 * ({@code rank} of {@code worldSize}) runs the same query in dataset order and keeps the samples whose position
 * {@code i} satisfies {@code i % worldSize == rank}, after dropping the tail so every worker gets the same number
 * of samples (PyTorch's {@code DistributedSampler(shuffle=False, drop_last=True)}). The split is deterministic: the
 * same query on the same dataset gives every rank the same samples on every run, without the workers talking to
 * each other.
 *
 * <p>Each worker reads the whole (truncated) result and skips the samples of other ranks, so the transfer is
 * {@code worldSize} times the data one rank trains on; for a result that fits in one worker's bandwidth budget that
 * is the simple, correct choice. The query's LIMIT stops the reads at the last sample any rank uses.
 *
 * <p>Arguments: {@code [rank worldSize batchSize]}; with none, it plays all ranks of a world of 4, one after the
 * other, and checks that they split the result exactly.
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
                } else {
                    int worldSize = 4;
                    long total = 0;
                    for (int rank = 0; rank < worldSize; rank++) {
                        total += train(dataset, query, rank, worldSize, batchSize);
                    }
                    long matching = dataset.plan(query, QueryOptions.defaults()).samples();
                    System.out.printf("%d ranks trained on %d of %d matching samples (the last %d dropped so "
                            + "every rank gets the same number)%n", worldSize, total, matching, matching - total);
                }
            }
        }
    }

    /** One worker's epoch: batches of its share of the result; returns the samples it trained on. */
    static long train(Dataset dataset, Query query, int rank, int worldSize, int batchSize) {
        QueryOptions options = QueryOptions.defaults().withOrder(ResultOrder.DATASET)
                .withNetwork(NetworkProfiles.NONE);
        long matching = dataset.plan(query, options).samples();
        long perRank = matching / worldSize;
        long samples = 0;
        int batchNumber = 0;
        try (SampleStream stream = dataset.query(query.withLimit(perRank * worldSize), options)) {
            Iterator<List<Sample>> batches = new RankBatches(stream, rank, worldSize, batchSize);
            while (batches.hasNext()) {
                List<Sample> batch = batches.next();
                long bytes = batch.stream().mapToLong(Sample::size).sum();
                // A real loop would decode the JPEGs and run a training step here.
                System.out.printf("rank %d/%d batch %d: %d samples, %d bytes, first %s%n", rank, worldSize,
                        batchNumber++, batch.size(), bytes, batch.get(0).filename());
                samples += batch.size();
            }
        }
        return samples;
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

    /**
     * Whether the sample at position {@code index} of a result of {@code total} samples belongs to {@code rank}:
     * positions past the largest multiple of {@code worldSize} are dropped, the rest dealt round-robin.
     */
    public static boolean belongsTo(long index, long total, int rank, int worldSize) {
        if (worldSize < 1 || rank < 0 || rank >= worldSize) {
            throw new IllegalArgumentException("rank must be in [0, worldSize), worldSize >= 1; got rank " + rank
                    + " of " + worldSize);
        }
        return index < total / worldSize * worldSize && index % worldSize == rank;
    }

    /**
     * Batches of one rank's samples from a stream in dataset order (the stream should be limited to the positions
     * any rank uses, a multiple of {@code worldSize}). Not thread-safe.
     */
    public static final class RankBatches implements Iterator<List<Sample>> {
        private final Iterator<Sample> samples;
        private final int rank;
        private final int worldSize;
        private final int batchSize;
        private long position;
        private List<Sample> next;

        public RankBatches(Iterator<Sample> samples, int rank, int worldSize, int batchSize) {
            this.samples = requireNonNull(samples, "samples is null");
            if (worldSize < 1 || rank < 0 || rank >= worldSize) {
                throw new IllegalArgumentException("rank must be in [0, worldSize), worldSize >= 1; got rank " + rank
                        + " of " + worldSize);
            }
            if (batchSize < 1) {
                throw new IllegalArgumentException("batchSize must be >= 1, got " + batchSize);
            }
            this.rank = rank;
            this.worldSize = worldSize;
            this.batchSize = batchSize;
        }

        @Override
        public boolean hasNext() {
            if (next == null) {
                List<Sample> batch = new ArrayList<>(batchSize);
                while (batch.size() < batchSize && samples.hasNext()) {
                    Sample sample = samples.next();
                    if (position++ % worldSize == rank) {
                        batch.add(sample);
                    }
                }
                next = batch.isEmpty() ? null : batch;
            }
            return next != null;
        }

        @Override
        public List<Sample> next() {
            if (!hasNext()) {
                throw new NoSuchElementException("No more batches for rank " + rank);
            }
            List<Sample> batch = next;
            next = null;
            return batch;
        }
    }
}
