package io.layoutbench.loader;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.layout.Dataset;
import io.layoutbench.api.layout.PreparedQuery;
import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.layout.ResultRange;
import io.layoutbench.api.layout.SupportsPreparedQueries;
import io.layoutbench.api.predicate.Query;
import java.util.List;

/**
 * A data loader for distributed training over a query of any dataset: each rank reads only its own share of the
 * result, in blocks of neighbouring samples, shuffled in two levels with a seed per epoch, and resumes exactly from a
 * saved {@link LoaderState}.
 *
 * <p><b>Plan once, split the plan.</b> The query is prepared once ({@link SupportsPreparedQueries}); every rank cuts
 * its result into the same blocks (runs of the coalesced reads of a default query of the same retrieval mode and
 * fields, so the blocks do not depend on the network, concurrency or read budget a machine reads with), permutes
 * them with the same seeded generator each epoch, and takes its consecutive share of that order ({@code samples /
 * worldSize} samples, or one more for the first {@code samples mod worldSize} ranks; with drop-last every rank gets
 * {@code samples / worldSize} and the last {@code samples mod worldSize} of the epoch's order are dropped). No
 * communication: the ranks' shares are disjoint and together the whole result, each epoch. A rank reads its blocks
 * as parts of one read of its share ({@link io.layoutbench.api.layout.PreparedQuery#asPartsOf}): about the requests
 * and bytes an optimized reader of just those samples sends. Then a seeded shuffle buffer mixes the rank's stream.
 *
 * <p>Unshuffled ({@link Shuffle#none()}), a rank's share is a run of the result in dataset order. Thread-safe:
 * epochs may run side by side. The prepared result holds the query's matches in memory (an int per match).
 *
 * <pre>{@code
 * LoaderSettings settings = LoaderSettings.defaults().withRank(rank, worldSize).withSeed(42).withBatchSize(64);
 * DataLoader loader = DataLoader.open(dataset, Query.parse("human_label IN ('tench', 'goldfish')"),
 *         QueryOptions.defaults(), settings);
 * for (int e = 0; e < epochs; e++) {
 *     try (Epoch epoch = loader.epoch(e)) {
 *         while (epoch.hasNext()) {
 *             train(epoch.next());
 *         }
 *     }
 * }
 * }</pre>
 */
public final class DataLoader {

    private final Dataset dataset;
    private final Query query;
    private final PreparedQuery prepared;
    private final LoaderSettings settings;
    private final EpochSplit split;
    private final SampleCache cache;

    private DataLoader(Dataset dataset, Query query, PreparedQuery prepared, PreparedQuery blocking,
            LoaderSettings settings) {
        this.dataset = dataset;
        this.query = query;
        this.prepared = prepared;
        this.settings = settings;
        this.split = new EpochSplit(blocking, settings.shuffle());
        this.cache = settings.cacheSettings()
                .map(c -> SampleCache.open(c, prepared.resultId(), dataset.schema())).orElse(null);
    }

    /**
     * A loader of {@code query}'s result on {@code dataset}, read with {@code options}. Every rank of a job must
     * use the same retrieval mode and fields (the blocks follow them); network, concurrency and read budget may
     * differ from rank to rank.
     *
     * @throws IllegalArgumentException if the dataset cannot read parts of a result (its layout does not implement
     *                                  {@link SupportsPreparedQueries}; every layout shipped does)
     * @throws io.layoutbench.api.predicate.PredicateException if the query does not fit the schema
     */
    public static DataLoader open(Dataset dataset, Query query, QueryOptions options, LoaderSettings settings) {
        requireNonNull(dataset, "dataset is null");
        requireNonNull(query, "query is null");
        requireNonNull(options, "options is null");
        requireNonNull(settings, "settings is null");
        if (!(dataset instanceof SupportsPreparedQueries preparing)) {
            throw new IllegalArgumentException("The dataset " + dataset + " (layout " + dataset.summary().layout()
                    + ") cannot read parts of a query's result: its layout does not implement "
                    + "SupportsPreparedQueries, which a loader needs");
        }
        PreparedQuery prepared = preparing.prepare(query, options);
        // Blocks are cut where a default query of the same mode and fields cuts its reads, whatever network,
        // concurrency and read budget this machine reads with: a job resumed on another instance type keeps its order.
        // The budget is pinned, as the default one follows this JVM's heap (merged reads are sized within it).
        QueryOptions canonical = QueryOptions.defaults().withMode(options.mode()).withFields(options.fields())
                .withMaxBufferedBytes(QueryOptions.DEFAULT_MAX_BUFFERED_BYTES);
        canonical = options.payload() ? canonical : canonical.withoutPayload();
        PreparedQuery blocking = canonical.equals(options) ? prepared : preparing.prepare(query, canonical);
        return new DataLoader(dataset, query, prepared, blocking, settings);
    }

    /**
     * A loader for the job {@code state} was saved from: its query and fields, seed, world size, rank, shuffle and
     * drop-last come from the state; workers, batch size, read-ahead and cache from {@code runtime}. Resume with
     * {@link #resume(LoaderState)}.
     */
    public static DataLoader forState(Dataset dataset, LoaderState state, QueryOptions options,
            LoaderSettings runtime) {
        requireNonNull(state, "state is null");
        LoaderSettings settings = runtime.withRank(state.rank(), state.worldSize()).withSeed(state.seed())
                .withShuffle(state.shuffle()).withDropLast(state.dropLast());
        return open(dataset, Query.parse(state.query()), options.withFields(state.fields()), settings);
    }

    /** Starts epoch {@code epoch} (0 or more) of this rank. */
    public Epoch epoch(int epoch) {
        if (epoch < 0) {
            throw new IllegalArgumentException("epoch must be >= 0, got " + epoch);
        }
        return new Epoch(this, epoch, 0, cache, null, List.of());
    }

    /**
     * Continues the epoch {@code state} was saved in, after the samples it had handed out: the samples and order an
     * uninterrupted loader would have yielded next. The samples the shuffle buffer held then are read again
     * ({@link LoaderStats#reReadSamples()}).
     *
     * @throws IllegalArgumentException naming the first setting in which the state and this loader differ (another
     *                                  dataset generation, query, seed, world size, rank, shuffle, drop-last or
     *                                  block boundaries), since the order would not be the same
     */
    public Epoch resume(LoaderState state) {
        requireNonNull(state, "state is null");
        checkSameJob(state);
        check("world size", state.worldSize(), settings.worldSize());
        check("rank", state.rank(), settings.rank());
        if (state.elastic()) {
            return new Epoch(this, state.epoch(), state.position(), cache, piece(state.epoch(), state.elasticFrom()),
                    state.elasticFrom());
        }
        return new Epoch(this, state.epoch(), state.position(), cache, null, List.of());
    }

    /**
     * Elastic resume: continues the epoch that every rank of an earlier world saved {@code states} in, with this
     * loader's world size. The samples the earlier ranks had not yielded, in the order they would have yielded them
     * (rank 0's first), are cut into consecutive pieces for the new ranks (sizes differ by at most one; drop-last
     * dropped what it dropped in the earlier world and drops nothing more): each remaining sample goes to exactly
     * one new rank. A piece's samples lie anywhere in the result, so they are read a window at a time, sorted; the
     * next epoch is an ordinary one of the new world size. A state saved during the elastic epoch resumes it with
     * {@link #resume(LoaderState)}; it cannot be resumed elastically again.
     *
     * @throws IllegalArgumentException if the states are not one per rank of one earlier world, of one epoch of
     *                                  this loader's job, naming what differs
     */
    public Epoch resumeElastic(List<LoaderState> states) {
        requireNonNull(states, "states is null");
        if (states.isEmpty()) {
            throw new IllegalArgumentException("An elastic resume needs the state of every rank of the earlier world");
        }
        LoaderState first = states.get(0);
        Long[] positions = new Long[first.worldSize()];
        for (LoaderState state : states) {
            if (state.elastic()) {
                throw new IllegalArgumentException("Rank " + state.rank() + "'s state is itself from an elastic resume"
                        + " of epoch " + state.epoch() + "; finish that epoch with resume() first");
            }
            if (state.worldSize() != first.worldSize() || state.epoch() != first.epoch()) {
                throw new IllegalArgumentException("The states are of different worlds or epochs: rank "
                        + state.rank() + " of " + state.worldSize() + " in epoch " + state.epoch() + ", rank "
                        + first.rank() + " of " + first.worldSize() + " in epoch " + first.epoch());
            }
            checkSameJob(state);
            if (positions[state.rank()] != null) {
                throw new IllegalArgumentException("Two states of rank " + state.rank() + " of " + state.worldSize());
            }
            positions[state.rank()] = state.position();
        }
        for (int rank = 0; rank < positions.length; rank++) {
            if (positions[rank] == null) {
                throw new IllegalArgumentException("No state of rank " + rank + " of " + positions.length
                        + ": an elastic resume needs every rank's");
            }
        }
        List<Long> from = List.of(positions);
        return new Epoch(this, first.epoch(), 0, cache, piece(first.epoch(), from), from);
    }

    private long[] piece(int epoch, List<Long> from) {
        return ElasticSplit.piece(split, settings.shuffle(), settings.seed(), epoch, settings.dropLast(), from,
                settings.rank(), settings.worldSize());
    }

    /** Checks that {@code state} was saved by a loader of this job: the same result, seed, shuffle and blocks. */
    private void checkSameJob(LoaderState state) {
        check("result (dataset generation, query and fields)", state.resultId(), prepared.resultId());
        check("seed", state.seed(), settings.seed());
        check("shuffle", state.shuffle(), settings.shuffle());
        check("drop-last", state.dropLast(), settings.dropLast());
        check("block boundaries (the dataset, the retrieval mode and the fields decide them)",
                Long.toHexString(state.blocksFingerprint()), Long.toHexString(split.fingerprint()));
    }

    private static void check(String what, Object saved, Object mine) {
        if (!saved.equals(mine)) {
            throw new IllegalArgumentException("Cannot resume: the state was saved with " + what + " " + saved
                    + " but this loader has " + mine);
        }
    }

    /** The state of this rank in {@code epoch} after {@code position} samples. */
    LoaderState stateAt(int epoch, long position, List<Long> elasticFrom) {
        return new LoaderState(dataset.summary().layout(), dataset.summary().prefix(), prepared.resultId(),
                query.toString(), prepared.options().fields(), settings.seed(),
                epoch, settings.worldSize(), settings.rank(), settings.shuffle(), settings.dropLast(),
                split.fingerprint(), position, elasticFrom);
    }

    /** This rank's share of epoch {@code epoch}: result ranges in the order it reads them (before the buffer). */
    public List<ResultRange> share(int epoch) {
        return split.share(settings.shuffle(), settings.seed(), epoch, settings.rank(),
                settings.worldSize(), settings.dropLast());
    }

    /** Samples this rank gets each epoch. */
    public long samplesPerEpoch() {
        return split.shareSize(settings.rank(), settings.worldSize(), settings.dropLast());
    }

    /** Blocks the result is cut into (1 unshuffled). */
    public int blockCount() {
        return split.blockCount();
    }

    /** The prepared query. */
    public PreparedQuery prepared() {
        return prepared;
    }

    /** The settings. */
    public LoaderSettings settings() {
        return settings;
    }

    /** The dataset's metadata schema. */
    public MetadataSchema schema() {
        return dataset.schema();
    }

    @Override
    public String toString() {
        return "DataLoader[" + query + " on " + dataset + ", rank " + settings.rank() + "/" + settings.worldSize()
                + ", " + prepared.samples() + " samples, " + split.blockCount() + " blocks, shuffle "
                + settings.shuffle() + "]";
    }
}
