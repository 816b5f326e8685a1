package io.layoutbench.api.layout;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.dataset.PayloadFields;
import io.layoutbench.api.network.HedgeDelay;
import io.layoutbench.api.network.NetworkProfile;
import io.layoutbench.api.network.NetworkProfiles;
import java.util.List;
import java.util.stream.LongStream;

/**
 * How to run one query: retrieval mode, how many requests may be in flight, result order, and how to decide when
 * two byte ranges of one object are worth reading as one request. Each query counts its own requests and bytes;
 * read them from {@link SampleStream#stats()}.
 *
 * <p>The coalescing gap, unless set explicitly, is derived from {@link #network()} and {@link #objective()}: for
 * {@link Objective#TIME} it is first-byte latency x per-connection bandwidth (reading through a smaller gap is
 * faster than a new request); for {@link Objective#COST} it is the GET price over the transfer price per byte.
 *
 * <p>Whatever the gap, an optimized query reads at most {@link #maxReadAmplification()} times the bytes it must read
 * anyway (default 1.1): the byte ranges of its matches, or the smallest units that hold them, such as Parquet pages.
 * Within that budget it merges across the smallest gaps first, since each merge saves one request
 * whatever its size. {@code withMaxReadAmplification(Double.POSITIVE_INFINITY)} merges across every gap the
 * objective favours, trading bytes for fewer requests.
 *
 * <pre>{@code
 * QueryOptions options = QueryOptions.defaults()
 *         .withMode(RetrievalMode.PAPER)
 *         .withMaxConcurrency(16)
 *         .withNetwork(NetworkProfiles.get("c5.large"));
 * // a client in the same region as its bucket pays nothing for bytes: merge wherever it saves time
 * QueryOptions inRegion = QueryOptions.defaults().withMaxReadAmplification(Double.POSITIVE_INFINITY);
 * // the captions of video samples, without a byte of their videos
 * QueryOptions captions = QueryOptions.defaults().withFields(List.of("txt"));
 * // which samples match, and their metadata, without a payload byte
 * QueryOptions metadataOnly = QueryOptions.defaults().withoutPayload();
 * }</pre>
 *
 * @param mode             paper or optimized retrieval
 * @param maxConcurrency   requests in flight at most, at least 1 (default 1024): a cap, not a target; a query keeps
 *                         as many in flight as its network's pool and its byte budget take ({@link #readsInFlight})
 * @param order            dataset order (default) or completion order
 * @param coalesceGapBytes in optimized mode, two ranges of one object at most this far apart are read as one
 *                         request; {@link #DERIVED_GAP} derives it from the network and objective (default)
 * @param network          the network the client sits on, for derived settings (default t3.medium)
 * @param objective        what optimized retrieval minimises (default time)
 * @param maxBufferedBytes bytes of reads launched but not yet handed to the consumer, at most (default
 *                         {@link #defaultMaxBufferedBytes()}: a quarter of the heap, at most 256 MiB; one read is
 *                         always allowed, however large): the memory bound of a query
 * @param maxReadAmplification in optimized mode, bytes read over the bytes the matches' ranges (or pages) span, at
 *                         most: at least 1 (merge only touching ranges), {@link Double#POSITIVE_INFINITY} for no
 *                         limit (default 1.1)
 * @param fields           the payload fields to read, in the order samples hold them; empty (default) for every
 *                         field of the schema. A field a sample lacks is left out of it.
 * @param lazyFieldBytes   in layouts that store each field apart (l1, l2), a field of at least this many bytes
 *                         comes back as a lazily read {@link io.layoutbench.api.dataset.Blob}: the query reads
 *                         none of it, each {@code read} reads what it asks for (default 64 MiB;
 *                         {@code Long.MAX_VALUE} to read every field whole). l3 and fac decide when writing: a
 *                         field of their {@code blob-threshold} or more is stored out of line and comes back lazily
 *                         read, a smaller one is in its row's blob and comes back in memory
 * @param payload          whether to read payload fields at all (default true); false ({@link #withoutPayload()})
 *                         returns samples of metadata only, reading no payload byte (a metadata query: which samples
 *                         match, their sizes, what a Spark read that selects no payload column needs)
 * @param hedging          in optimized mode, whether reads get copies: a small batch on an idle link is raced
 *                         (each read sent two or three times at once), any other read slower than the network's
 *                         profile expects gets one duplicate; the first copy to answer wins and the others are
 *                         cancelled (default true; see {@link #withHedging}). Paper mode never hedges.
 */
public record QueryOptions(RetrievalMode mode, int maxConcurrency, ResultOrder order, long coalesceGapBytes,
        NetworkProfile network, Objective objective, long maxBufferedBytes, double maxReadAmplification,
        List<String> fields, long lazyFieldBytes, boolean payload, boolean hedging) {

    /**
     * Default {@link #maxConcurrency}: 1024, a cap above what any preset's link needs, so that the concurrency a
     * query runs with comes from its network and byte budget ({@link #readsInFlight}).
     */
    public static final int DEFAULT_MAX_CONCURRENCY = 1024;

    /**
     * Reads in flight over a network with no latency to hide (the {@code none} profile, local storage): as many as
     * keep local storage busy without holding more open than it serves at once.
     */
    public static final int UNLIMITED_NETWORK_READS = 64;

    /**
     * 64 MiB: the default {@link #maxBufferedBytes} in a heap of 256 MiB ({@code -Xmx256m}), and in any heap before
     * {@link #defaultMaxBufferedBytes()} grew it with the heap.
     */
    public static final long DEFAULT_MAX_BUFFERED_BYTES = 64L << 20;

    /** The most {@link #defaultMaxBufferedBytes()} takes, 256 MiB: the budget of a query in a heap of 1 GiB or more. */
    public static final long DEFAULT_MAX_BUFFERED_BYTES_CEILING = 256L << 20;

    /**
     * Default {@link #maxReadAmplification}: 1.1, bytes within 10% of what the matches need. Merging further saves
     * requests but, for scattered matches, costs transfer dollars faster than it saves time (see docs/RESULTS.md).
     */
    public static final double DEFAULT_MAX_READ_AMPLIFICATION = 1.1;

    /** Default {@link #lazyFieldBytes}: 64 MiB, {@link #DEFAULT_MAX_BUFFERED_BYTES}. */
    public static final long DEFAULT_LAZY_FIELD_BYTES = 64L << 20;

    /** {@link #coalesceGapBytes} value that derives the gap from the network and objective. */
    public static final long DERIVED_GAP = -1;

    /** What optimized retrieval minimises when it trades bytes for requests. */
    public enum Objective {
        /** Wall time: merge ranges when reading the gap is faster than another request's first-byte latency. */
        TIME,
        /** Dollars: merge ranges when transferring the gap costs less than another GET. */
        COST
    }

    public QueryOptions {
        requireNonNull(mode, "mode is null");
        requireNonNull(order, "order is null");
        requireNonNull(network, "network is null");
        requireNonNull(objective, "objective is null");
        if (maxConcurrency < 1) {
            throw new IllegalArgumentException("maxConcurrency must be >= 1, got " + maxConcurrency);
        }
        if (maxBufferedBytes < 1) {
            throw new IllegalArgumentException("maxBufferedBytes must be >= 1, got " + maxBufferedBytes);
        }
        if (!(maxReadAmplification >= 1)) {
            throw new IllegalArgumentException("maxReadAmplification must be >= 1 (1: read only the bytes needed; "
                    + "Infinity: no limit), got " + maxReadAmplification);
        }
        fields = List.copyOf(requireNonNull(fields, "fields is null"));
        for (int i = 0; i < fields.size(); i++) {
            PayloadFields.check(fields.get(i));
            if (fields.subList(0, i).contains(fields.get(i))) {
                throw new IllegalArgumentException("Payload field '" + fields.get(i) + "' is asked for twice");
            }
        }
        if (!payload && !fields.isEmpty()) {
            throw new IllegalArgumentException("Options without payload ask for no field, but fields " + fields
                    + " are asked for");
        }
        if (lazyFieldBytes < 1) {
            throw new IllegalArgumentException("lazyFieldBytes must be >= 1, got " + lazyFieldBytes);
        }
        if (coalesceGapBytes < DERIVED_GAP) {
            throw new IllegalArgumentException("coalesceGapBytes must be >= 0, or -1 to derive it; got "
                    + coalesceGapBytes);
        }
    }

    /**
     * Reads of typically {@code typicalReadBytes} each that a query keeps in flight: as many as the network's
     * connection pool takes (the presets size it from their bandwidth-delay product, so that reads of 64 KiB fill
     * the link: {@link NetworkProfile#requestsToFillLink}), but no more than {@link #maxConcurrency} and the reads of
     * that size {@link #maxBufferedBytes} holds; at least one. Over a network with no latency,
     * {@link #UNLIMITED_NETWORK_READS} at most. Retrieval runs with it, and the cost model predicts with it.
     *
     * <p>Why not exactly the reads that fill the link ({@code requestsToFillLink(typicalReadBytes)})? That count
     * keeps the link full in a steady state, but a query of a few rounds spends most of its time starting and
     * draining them: at mini on t3.medium, 86 reads of 776 KB (Q6) took 1.3-1.6 times their bound with the 35 that
     * fill the link in flight and 1.1-1.4 times with all 86 (l1, l2, l3); more reads in flight share the host's
     * bandwidth and cost no time. The byte budget is what bounds them.
     *
     * <pre>{@code
     * QueryOptions sixtyFour = QueryOptions.defaults().withMaxBufferedBytes(64L << 20);
     * sixtyFour.readsInFlight(114_000);      // t3.medium: 297, its pool (the budget holds 588)
     * sixtyFour.readsInFlight(8_000_000);    // 8: what 64 MiB holds
     * sixtyFour.withMaxConcurrency(32).readsInFlight(114_000);   // 32: the cap
     * }</pre>
     *
     * @param typicalReadBytes the typical read's size; weigh by bytes ({@code sum(b^2) / sum(b)}) so that one large
     *                         read among small ones counts as what it is
     */
    public int readsInFlight(double typicalReadBytes) {
        if (!(typicalReadBytes > 0) || Double.isInfinite(typicalReadBytes)) {
            throw new IllegalArgumentException("typicalReadBytes must be > 0 and finite, got " + typicalReadBytes);
        }
        long pool = network.firstByteLatency().isZero()
                ? Math.min(UNLIMITED_NETWORK_READS, network.maxConnections()) : network.maxConnections();
        long fits = (long) Math.floor(maxBufferedBytes / typicalReadBytes);
        return (int) Math.max(1, Math.min(pool, Math.min(maxConcurrency, fits)));
    }

    /**
     * {@link #readsInFlight(double)} for reads of {@code readBytes}, their typical size weighed by bytes
     * ({@code sum(b^2) / sum(b)}, so that one 64 MB row group among small reads counts as what it is); reads that
     * hold no byte count as reads of one byte (the pool and the cap decide).
     */
    public int readsInFlight(LongStream readBytes) {
        return readsInFlight(typicalReadBytes(readBytes));
    }

    /**
     * The most reads of typically {@code typicalReadBytes} an adaptive query may grow to keep in flight: the cap
     * ({@link #maxConcurrency}) and what {@link #maxBufferedBytes} holds, whatever the network's pool; never below
     * {@link #readsInFlight(double)}, where it starts. Optimized retrieval starts at {@code readsInFlight} (the
     * profile's view of the link), grows toward this while throughput grows, and backs off when the store throttles
     * or latency rises.
     *
     * <pre>{@code
     * QueryOptions.defaults().withMaxBufferedBytes(64L << 20)
     *         .readsInFlightCeiling(114_000);   // 588: what 64 MiB holds (t3.medium's pool: 297)
     * }</pre>
     */
    public int readsInFlightCeiling(double typicalReadBytes) {
        int start = readsInFlight(typicalReadBytes);
        long fits = (long) Math.floor(maxBufferedBytes / typicalReadBytes);
        return (int) Math.max(start, Math.min(maxConcurrency, fits));
    }

    /**
     * The typical size of {@code readBytes}, weighed by bytes ({@code sum(b^2) / sum(b)}, so that one 64 MB row
     * group among small reads counts as what it is); 1 when they hold no byte.
     */
    public static double typicalReadBytes(LongStream readBytes) {
        double[] sums = new double[2];
        readBytes.forEach(bytes -> {
            sums[0] += bytes;
            sums[1] += (double) bytes * bytes;
        });
        return sums[0] == 0 ? 1 : sums[1] / sums[0];
    }

    /**
     * Optimized mode, at most 1024 requests in flight (as many as the network's pool and the budget take), dataset
     * order, gap derived for time on t3.medium, {@link #defaultMaxBufferedBytes()} buffered, reads within 1.1x of the
     * bytes needed, slow reads hedged.
     */
    public static QueryOptions defaults() {
        return new QueryOptions(RetrievalMode.OPTIMIZED, DEFAULT_MAX_CONCURRENCY, ResultOrder.DATASET, DERIVED_GAP,
                NetworkProfiles.T3_MEDIUM, Objective.TIME, defaultMaxBufferedBytes(), DEFAULT_MAX_READ_AMPLIFICATION,
                List.of(), DEFAULT_LAZY_FIELD_BYTES, true, true);
    }

    /**
     * The byte budget {@link #defaults()} gives a query in this JVM: {@link #defaultMaxBufferedBytes(long)} of the
     * heap it may grow to ({@link Runtime#maxMemory()}).
     */
    public static long defaultMaxBufferedBytes() {
        return defaultMaxBufferedBytes(Runtime.getRuntime().maxMemory());
    }

    /**
     * The byte budget {@link #defaults()} gives a query in a heap of {@code maxHeapBytes}: a quarter of it, at most
     * {@link #DEFAULT_MAX_BUFFERED_BYTES_CEILING 256 MiB}.
     *
     * <p>Why it grows with the heap: in dataset order a read handed over late holds back the budget of the done
     * reads behind it, so the budget, not the connection pool, bounds the reads in flight once it is within a few
     * bandwidth-delay products (the latency tail). At mini, Q8 (2,311 samples, 204 MB) took 1.2 times its physical
     * bound on t3.medium, 1.9 on c5.large and 3.2 on c8gb.large with 64 MiB, and 1.1, 1.2-1.3 and 1.7-2.0 times
     * with 256 MiB. Why a quarter: a read in flight can take twice its size while it is assembled, the consumer holds
     * what it was handed, and the collector needs room (fac paper mode under a 128 MiB heap ran out of it in 3 of 18
     * runs with 64 MiB, in none of 15 with 32 MiB: docs/RELIABILITY.md). Why no more than 256 MiB: it covers
     * c8gb.large's 75 MB bandwidth-delay product three times over, and a loader runs several queries side by side.
     *
     * <pre>{@code
     * QueryOptions.defaultMaxBufferedBytes(128L << 20);   // 32 MiB (-Xmx128m)
     * QueryOptions.defaultMaxBufferedBytes(256L << 20);   // 64 MiB (-Xmx256m)
     * QueryOptions.defaultMaxBufferedBytes(512L << 20);   // 128 MiB
     * QueryOptions.defaultMaxBufferedBytes(6L << 30);     // 256 MiB (the default heap of a 24 GB machine)
     * }</pre>
     */
    public static long defaultMaxBufferedBytes(long maxHeapBytes) {
        if (maxHeapBytes < 1) {
            throw new IllegalArgumentException("maxHeapBytes must be >= 1, got " + maxHeapBytes);
        }
        return Math.max(1, Math.min(DEFAULT_MAX_BUFFERED_BYTES_CEILING, maxHeapBytes / 4));
    }

    public QueryOptions withMode(RetrievalMode newMode) {
        return new QueryOptions(newMode, maxConcurrency, order, coalesceGapBytes, network, objective, maxBufferedBytes,
                maxReadAmplification, fields, lazyFieldBytes, payload, hedging);
    }

    public QueryOptions withMaxConcurrency(int newMaxConcurrency) {
        return new QueryOptions(mode, newMaxConcurrency, order, coalesceGapBytes, network, objective, maxBufferedBytes,
                maxReadAmplification, fields, lazyFieldBytes, payload, hedging);
    }

    public QueryOptions withOrder(ResultOrder newOrder) {
        return new QueryOptions(mode, maxConcurrency, newOrder, coalesceGapBytes, network, objective, maxBufferedBytes,
                maxReadAmplification, fields, lazyFieldBytes, payload, hedging);
    }

    public QueryOptions withCoalesceGapBytes(long newGap) {
        return new QueryOptions(mode, maxConcurrency, order, newGap, network, objective, maxBufferedBytes,
                maxReadAmplification, fields, lazyFieldBytes, payload, hedging);
    }

    public QueryOptions withNetwork(NetworkProfile newNetwork) {
        return new QueryOptions(mode, maxConcurrency, order, coalesceGapBytes, newNetwork, objective, maxBufferedBytes,
                maxReadAmplification, fields, lazyFieldBytes, payload, hedging);
    }

    public QueryOptions withObjective(Objective newObjective) {
        return new QueryOptions(mode, maxConcurrency, order, coalesceGapBytes, network, newObjective, maxBufferedBytes,
                maxReadAmplification, fields, lazyFieldBytes, payload, hedging);
    }

    public QueryOptions withMaxBufferedBytes(long newMaxBufferedBytes) {
        return new QueryOptions(mode, maxConcurrency, order, coalesceGapBytes, network, objective,
                newMaxBufferedBytes, maxReadAmplification, fields, lazyFieldBytes, payload, hedging);
    }

    /** These options with a different read budget: at least 1, {@link Double#POSITIVE_INFINITY} for no limit. */
    public QueryOptions withMaxReadAmplification(double newMaxReadAmplification) {
        return new QueryOptions(mode, maxConcurrency, order, coalesceGapBytes, network, objective, maxBufferedBytes,
                newMaxReadAmplification, fields, lazyFieldBytes, payload, hedging);
    }

    /** These options reading only payload fields {@code newFields} (empty: every field), payload read again. */
    public QueryOptions withFields(List<String> newFields) {
        return new QueryOptions(mode, maxConcurrency, order, coalesceGapBytes, network, objective, maxBufferedBytes,
                maxReadAmplification, newFields, lazyFieldBytes, true, hedging);
    }

    /** These options reading no payload field: samples come back with their metadata only. */
    public QueryOptions withoutPayload() {
        return new QueryOptions(mode, maxConcurrency, order, coalesceGapBytes, network, objective, maxBufferedBytes,
                maxReadAmplification, List.of(), lazyFieldBytes, false, hedging);
    }

    /** These options returning fields of at least {@code newLazyFieldBytes} bytes as lazily read blobs. */
    public QueryOptions withLazyFieldBytes(long newLazyFieldBytes) {
        return new QueryOptions(mode, maxConcurrency, order, coalesceGapBytes, network, objective, maxBufferedBytes,
                maxReadAmplification, fields, newLazyFieldBytes, payload, hedging);
    }

    /**
     * These options with hedged reads on or off. With hedging (the default), optimized retrieval sends one duplicate
     * of a read that has not completed when {@link HedgeDelay} says it should have (the profile's 75th-percentile
     * first-byte latency plus the time its bytes take, its share of the link included; not while what is in flight
     * keeps the link busy for longer than that latency); the first of the two to complete wins and the other is
     * cancelled. A batch of reads that late duplicates cannot bring near its bound (a few dozen reads on an idle
     * link wait for the slowest of as many latency draws) is raced instead: each read goes two or three times at
     * once, as {@link HedgeDelay#racedCopies} chooses, and the losers are cancelled at the winner's first byte,
     * before they move any bytes; only a backend that signals first bytes
     * ({@link io.layoutbench.api.backend.SupportsFirstByteSignal}) is raced, reads from any other are hedged late.
     * A cold query's metadata reads, which do not pass through the window, are raced too, each weighed alone
     * ({@link HedgeDelay#racedCopiesAlone}). A duplicate or copy is a request: a data read's holds a slot of the read
     * window and a share of the byte budget while in flight; every one is counted among the query's requests (and in
     * {@link io.layoutbench.api.metrics.MetricsSnapshot#hedgedRequests}), and the bytes a loser received count as
     * transferred. Only optimized mode hedges; on a profile without latency jitter there is no tail to cut and
     * nothing is hedged. The cost model predicts with the same rules.
     *
     * <pre>{@code
     * QueryOptions noDuplicates = QueryOptions.defaults().withHedging(false);   // one request per planned read
     * }</pre>
     */
    public QueryOptions withHedging(boolean newHedging) {
        return new QueryOptions(mode, maxConcurrency, order, coalesceGapBytes, network, objective, maxBufferedBytes,
                maxReadAmplification, fields, lazyFieldBytes, payload, newHedging);
    }

    /**
     * Whether a query with these options hedges its reads: {@link #hedging()} in optimized mode, on a network whose
     * first-byte latency varies ({@link HedgeDelay#worthwhile}).
     *
     * <pre>{@code
     * QueryOptions.defaults().hedgesReads();                                  // true
     * QueryOptions.defaults().withMode(RetrievalMode.PAPER).hedgesReads();    // false: the paper did not
     * }</pre>
     */
    public boolean hedgesReads() {
        return hedging && mode == RetrievalMode.OPTIMIZED && HedgeDelay.worthwhile(network);
    }

    /**
     * The fields a query of a dataset of {@code schema} reads, in order: {@link #fields()}, or every field; none
     * without {@link #payload()}.
     *
     * @throws IllegalArgumentException naming the schema's fields if one asked for is not among them
     */
    public List<String> fieldsOf(MetadataSchema schema) {
        if (!payload) {
            return List.of();
        }
        if (fields.isEmpty()) {
            return schema.payloadFields();
        }
        for (String field : fields) {
            if (!schema.payloadFields().contains(field)) {
                throw new IllegalArgumentException("The dataset has no payload field '" + field + "'; its fields are "
                        + schema.payloadFields());
            }
        }
        return fields;
    }
}
