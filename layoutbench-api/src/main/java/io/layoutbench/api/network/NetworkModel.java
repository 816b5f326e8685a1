package io.layoutbench.api.network;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Random;

/**
 * How long requests take on a {@link NetworkProfile}: the one place where the profile's numbers become timings.
 * The simulated-network backend drives a model with a clock; {@link #predict} runs one to completion for the cost
 * model. Both therefore agree to the nanosecond.
 *
 * <p><b>The model.</b> A request goes through four steps:
 * <ol>
 *   <li><b>Connection.</b> It takes an idle pooled connection if there is one. Otherwise, if fewer than
 *       {@code maxConnections} are open, it opens a new one and pays {@code connectionSetup}. Otherwise it waits,
 *       first come first served, for a connection to be freed; the freed connection is warm, so no set-up.
 *       Connections stay open once opened (idle time-outs are not modelled), except a cancelled request's. A model
 *       starts with none open, or with those its {@link Client} holds ({@link #startWith}); a client that takes time
 *       to send a request sends one at a time, so requests submitted together leave one after another.</li>
 *   <li><b>First byte</b> arrives {@code firstByteLatency x exp(σ Z)} after the connection is ready and the client
 *       has sent the request (Z standard normal, drawn from the seeded generator when the request is submitted; with
 *       no generator, the median). No bandwidth is used while waiting.</li>
 *   <li><b>Body.</b> The bytes flow as a fluid. With {@code n} requests receiving at once, each receives at
 *       {@code min(connectionBytesPerSecond, hostCap / n)}: processor sharing, which for connections with equal
 *       per-connection limits is also the max-min fair share. Rates are recomputed whenever a transfer starts or
 *       ends, so a request that outlives its neighbours speeds up.</li>
 *   <li><b>Host cap</b> is the {@link HostBandwidth} burst rate while burst credit is left, else the baseline.
 *       Credit drains at {@code (aggregate rate - baseline)} and refills at {@code (baseline - aggregate rate)} up to
 *       {@link HostBandwidth#burstCreditBytes()}; a new model starts with a full bucket.</li>
 * </ol>
 * Event times are rounded to the nearest nanosecond. A zero-byte response (or an error response) completes at its
 * first byte.
 *
 * <p><b>Use.</b> {@link #submit} adds a request at the model's current time; {@link #advanceTo} moves time forward
 * and returns the requests that completed, in completion order; {@link #nextEventNanos()} says when the next thing
 * happens, so a driver can sleep or schedule until then. Not thread-safe: one driver, or external locking.
 *
 * <pre>{@code
 * NetworkModel model = NetworkModel.withJitter(NetworkProfiles.get("t3.medium"), 42);
 * NetworkModel.Transfer read = model.submit(110_000);
 * List<NetworkModel.Transfer> done = model.advanceTo(model.nextEventNanos());   // until something happens
 *
 * Duration batch = NetworkModel.predict(NetworkProfiles.get("c5.large"), sizes, 16);
 * }</pre>
 */
public final class NetworkModel {

    /**
     * Runs of {@link #expected} for a batch of one read; a batch of n reads gets {@value #EXPECTATION_READS} / n
     * ({@value #ONE_WINDOW_READS} / n if it goes in one window). The time of a batch of one or two reads varies the
     * most from draw to draw (a lognormal σ 0.5 has a standard deviation of half its mean), and such a run costs a
     * microsecond: 16 runs priced a tiny L1 query of two reads at
     * 54 ms against an expected 45 (43.3 ms for the slower of two draws, 200,000 sampled, plus 1.7 ms of transfer),
     * and 256 priced one warm read of 93.6 kB on t3.medium at 37.6 ms, where the simulated network's mean over 400
     * seeds was 35.7 ms and the lognormal's is 35.6 (30 ms x e^(σ²/2) + 1.6 ms of transfer); 1,024 price it at 35.8.
     */
    public static final int EXPECTATION_RUNS = 1024;

    /**
     * Reads {@link #expected} simulates at most over all its runs (but one run, whatever the batch), for a batch of
     * more tasks than its concurrency.
     */
    public static final int EXPECTATION_READS = 1024;

    /**
     * Reads {@link #expected} simulates over its runs for a batch sent in one window (no more tasks than
     * {@code concurrency}). Its time is the slowest of all its reads, which varies the most from draw to draw: l1's
     * Q4 at mini on c8gb.large, 130 reads raced three ways (390 requests), was priced at 54.3 ms by the 2 runs of
     * {@link #EXPECTATION_READS}, 57.6 by 8 and 60.2 by 32 (1.5 ms a run), and measured at 57 to 62 ms; this budget
     * gives it 21 runs.
     */
    public static final int ONE_WINDOW_READS = 8192;

    /**
     * Not a count: asks for a prediction's read budget, {@link #ONE_WINDOW_READS} for a batch of no more tasks than
     * its concurrency, else {@link #EXPECTATION_READS}.
     */
    private static final int READS_BY_WINDOW = -1;

    private static final double NANOS_PER_SECOND = 1e9;

    /**
     * One request in the model. Its times are on the model's clock and are {@code -1} until they happen (the
     * first-byte time is known as soon as the request has a connection). Read it from the driving thread.
     *
     * <pre>{@code
     * NetworkModel.Transfer read = model.submit(110_000);
     * ...
     * if (read.isDone()) { long took = read.completedNanos() - read.submittedNanos(); }
     * }</pre>
     */
    public static final class Transfer {
        private final long id;
        private final long bytes;
        private final long latencyNanos;
        private final long submittedNanos;
        /** When the client has sent it ({@link Client#sendTime}): its submission, or later behind others. */
        private final long leavesNanos;
        private long sentNanos = -1;
        private boolean newConnection;
        private long firstByteNanos = -1;
        private boolean receiving;
        private double remainingBytes;
        private long completedNanos = -1;
        private boolean cancelled;

        private Transfer(long id, long bytes, long latencyNanos, long submittedNanos, long leavesNanos) {
            this.id = id;
            this.bytes = bytes;
            this.latencyNanos = latencyNanos;
            this.submittedNanos = submittedNanos;
            this.leavesNanos = leavesNanos;
        }

        /** Submission order, from 0. */
        public long id() {
            return id;
        }

        /** Response body size. */
        public long bytes() {
            return bytes;
        }

        /** When it was submitted. */
        public long submittedNanos() {
            return submittedNanos;
        }

        /** When it got a connection (and was sent), or -1 while it waits for one. */
        public long sentNanos() {
            return sentNanos;
        }

        /** Whether it opened a new connection and paid the set-up. */
        public boolean openedConnection() {
            return newConnection;
        }

        /** When its first byte arrives (set once it has a connection), or -1. */
        public long firstByteNanos() {
            return firstByteNanos;
        }

        /**
         * Set-up (if any) plus first-byte latency, and any wait for the client to send it ({@link Client#sendTime}):
         * from getting a connection to the first byte, or -1 before it has one.
         */
        public long timeToFirstByteNanos() {
            return sentNanos < 0 ? -1 : firstByteNanos - sentNanos;
        }

        /** When its last byte arrived, or -1. */
        public long completedNanos() {
            return completedNanos;
        }

        /** Whether its last byte arrived. */
        public boolean isDone() {
            return completedNanos >= 0;
        }

        /**
         * Whether it was {@linkplain NetworkModel#cancel cancelled} before its last byte arrived.
         *
         * <pre>{@code
         * if (read.isCancelled()) { long wasted = read.receivedBytes(); }
         * }</pre>
         */
        public boolean isCancelled() {
            return cancelled;
        }

        /**
         * Body bytes that have arrived: none before the first byte, all once done, and for a cancelled request what
         * had arrived when it was cancelled (as of the model's time when last advanced).
         *
         * <pre>{@code
         * long arrived = read.receivedBytes();   // 0 before its first byte, bytes() once done
         * }</pre>
         */
        public long receivedBytes() {
            if (isDone()) {
                return bytes;
            }
            return receiving || cancelled ? Math.round(bytes - remainingBytes) : 0;
        }

        @Override
        public String toString() {
            return "Transfer[#" + id + ", " + bytes + " bytes, submitted " + submittedNanos + ", sent " + sentNanos
                    + (newConnection ? " (new connection)" : "") + ", first byte " + firstByteNanos + ", completed "
                    + completedNanos + (cancelled ? ", cancelled" : "") + "]";
        }
    }

    private final NetworkProfile profile;
    private final Random jitter;
    private final long setupNanos;
    private final long medianLatencyNanos;
    private final double maxBurstCredit;
    private final ArrayDeque<Transfer> waitingForConnection = new ArrayDeque<>();
    private final List<Transfer> onConnection = new ArrayList<>();
    private int openConnections;
    /** The client's time to send one request ({@link Client#sendTime}); zero: requests go the moment they are due. */
    private long sendNanos;
    /** When the client's sender is next free to send a request; requests due before then wait for it. */
    private long senderFreeAt;
    private int receiving;
    private long now;
    private long nextId;
    private double burstCredit;
    private double rateOverLastInterval;

    private NetworkModel(NetworkProfile profile, Random jitter) {
        this.profile = requireNonNull(profile, "profile is null");
        this.jitter = jitter;
        this.setupNanos = profile.connectionSetup().toNanos();
        this.medianLatencyNanos = profile.firstByteLatency().toNanos();
        this.maxBurstCredit = profile.host().burstCreditBytes();
        this.burstCredit = maxBurstCredit;
    }

    /**
     * A model at time zero whose first-byte latencies are drawn from a generator seeded with {@code seed}. The seed is
     * mixed first (SplitMix64's finalizer): {@code java.util.Random}'s first draws from nearby seeds are correlated,
     * and callers seed with nearby values (the bench hashes a run's layout, mode, query and repetition). Unmixed, the
     * first latency of 594 such runs averaged 0.94 times the median, against the 1.13 of independent draws.
     */
    public static NetworkModel withJitter(NetworkProfile profile, long seed) {
        return new NetworkModel(profile, new Random(mix(seed)));
    }

    /**
     * Starts this model with the state {@code client} brings: its idle open connections, which its first requests take
     * with no set-up, and its time to send a request, which spaces the requests it sends one after another. Call it
     * before anything is submitted.
     *
     * <pre>{@code
     * NetworkModel model = NetworkModel.withJitter(profile, 42).startWith(new NetworkModel.Client(6, sendTime));
     * }</pre>
     *
     * @param client the connections it holds open and its time to send a request
     * @return this model
     * @throws IllegalStateException    if a request was submitted already
     * @throws IllegalArgumentException if the client holds more connections than the profile allows
     */
    public NetworkModel startWith(Client client) {
        requireNonNull(client, "client is null");
        if (nextId > 0) {
            throw new IllegalStateException("A model's client is set before its first request, not after "
                    + nextId + " requests");
        }
        if (client.openConnections() > profile.maxConnections()) {
            throw new IllegalArgumentException("A client cannot hold " + client.openConnections()
                    + " open connections on " + profile.name() + ", which allows " + profile.maxConnections());
        }
        openConnections = client.openConnections();
        sendNanos = saturatedNanos(client.sendTime());
        return this;
    }

    /**
     * What a client brings to a batch of reads, besides the network: the connections an earlier run left it open and
     * idle, and its own time to send one request (building, signing and handing it to its connection), during which
     * it sends no other. A fresh client ({@link #FRESH}) opens every connection and sends any number of requests at
     * once.
     *
     * <p>A run leaves fewer connections open than it used when it raced or hedged reads: a copy that lost was
     * cancelled and its connection closed (an HTTP/1.1 response cannot be abandoned on a connection that stays
     * usable), so the next run's copies open new ones and pay the set-up again.
     *
     * <p>The send time is the client's work on a request when it is submitted, whether the request then waits for a
     * connection or is cancelled before it leaves: an HTTP client builds and signs a request before it takes a
     * connection from its pool.
     *
     * <pre>{@code
     * NetworkModel.Client warm = new NetworkModel.Client(130, Duration.ofNanos(20_000));
     * }</pre>
     *
     * @param openConnections idle connections open before the batch; at least zero
     * @param sendTime        the client's time to send one request; at least zero
     */
    public record Client(int openConnections, Duration sendTime) {
        /** No open connection, and sending takes no time. */
        public static final Client FRESH = new Client(0, Duration.ZERO);

        public Client {
            requireNonNull(sendTime, "sendTime is null");
            if (openConnections < 0 || sendTime.isNegative()) {
                throw new IllegalArgumentException("A client holds at least zero connections and takes at least zero "
                        + "time to send, got " + openConnections + " connections and " + sendTime);
            }
        }
    }

    /** SplitMix64's output function: nearby inputs give unrelated outputs. */
    static long mix(long seed) {
        long z = seed + 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** A model at time zero in which every first-byte latency is the profile's median: deterministic by design. */
    public static NetworkModel withMedianLatency(NetworkProfile profile) {
        return new NetworkModel(profile, null);
    }

    /**
     * Predicts how long a client takes to fetch responses of {@code requestSizes} bytes, in list order, keeping
     * {@code concurrency} requests outstanding (a new one is sent the moment one completes), starting idle with no
     * open connections and a full burst bucket, with median latencies. Requests beyond
     * {@code profile.maxConnections()} wait for a connection, as in the simulated backend.
     *
     * @return the time from the first request to the last byte; zero for no requests
     */
    public static Duration predict(NetworkProfile profile, List<Long> requestSizes, int concurrency) {
        return run(withMedianLatency(profile), tasks(requestSizes, List.of()), concurrency, Budget.NONE);
    }

    /**
     * The expected time of {@link #predict}'s batch when first-byte latencies vary as the profile says: the mean of
     * {@value #EXPECTATION_RUNS} runs whose latencies are drawn from generators with fixed seeds (so the same inputs
     * give the same answer); fewer for batches of more reads, {@value #EXPECTATION_READS} / n (or
     * {@value #ONE_WINDOW_READS} / n for a batch of no more tasks than {@code concurrency}) and at least
     * one, as a large batch's time varies little from draw to draw and each run costs a simulation of every read
     * (2,000 reads with 297 in flight: about 30 ms). A batch waits for its slowest reads, the last of every round of
     * {@code concurrency}, and the slowest of n draws lies further above the median the more reads run side by side:
     * with σ 0.5, one read takes 1.13 times the median latency on average, the slowest of 10 about 2.2 times. A
     * median-latency run ({@link #predict}) prices none of that; this prices the order statistics of the very
     * distribution the simulated backend draws from. With no jitter it is {@link #predict}. No read is hedged:
     * {@code expectation(profile, requestSizes, concurrency, false).time()}.
     *
     * <pre>{@code
     * Duration t = NetworkModel.expected(NetworkProfiles.get("t3.medium"), Collections.nCopies(10, 110_000L), 64);
     * }</pre>
     */
    public static Duration expected(NetworkProfile profile, List<Long> requestSizes, int concurrency) {
        return expectation(profile, requestSizes, concurrency, false).time();
    }

    /**
     * What a batch of reads is expected to take and, with {@code hedged}, what its hedges cost: {@link #expected}'s
     * seeded runs, in which, with {@code hedged}, a read not completed when its hedge delay is up after it was
     * submitted gets one duplicate (checked as {@link HedgeDelay} says, against the bytes then in flight), a request
     * of its own with its own latency draw, as optimized retrieval sends it.
     * The first of the two to complete ends the read and the other is {@linkplain #cancel cancelled} (its
     * connection closed, the bytes it received counted). A duplicate holds one of the {@code concurrency} slots
     * while in flight; a hedge that finds every slot taken waits, and goes before the next new read when one frees.
     * So a hedged read takes {@code min(first, delay + second)}, plus any wait for a slot. Without jitter nothing is
     * hedged ({@link HedgeDelay#worthwhile}) and this is {@link #predict}.
     *
     * <pre>{@code
     * NetworkModel.Expectation e = NetworkModel.expectation(NetworkProfiles.get("t3.medium"),
     *         Collections.nCopies(13, 110_000L), 297, true);
     * e.time();             // below expected(...) for the same batch: the slowest reads were hedged
     * e.hedgedRequests();   // duplicates sent, mean over the runs
     * }</pre>
     */
    public static Expectation expectation(NetworkProfile profile, List<Long> requestSizes, int concurrency,
            boolean hedged) {
        return expectation(profile, requestSizes, concurrency, hedged ? 1 : 0);
    }

    /**
     * {@link #expectation(NetworkProfile, List, int, boolean)} with the reads sent as optimized retrieval sends them
     * when it races ({@link HedgeDelay#racedCopies}): {@code copies} of 2 or more sends each read that many times at
     * once, each copy a request with its own latency draw and a slot of the {@code concurrency} (the copies of a read
     * go before the next read); the first copy whose first byte arrives wins, the others are cancelled then, before
     * they move a byte (the original's slot stays taken until the read is done, as retrieval holds a task's), and no
     * read is hedged late. {@code copies} 1 is the hedging of the boolean form, 0 no hedging at all.
     *
     * <pre>{@code
     * NetworkModel.Expectation raced = NetworkModel.expectation(NetworkProfiles.get("t3.medium"),
     *         Collections.nCopies(13, 110_000L), 297, 2);
     * raced.hedgedRequests();   // 13: one extra copy of each read
     * }</pre>
     *
     * @throws IllegalArgumentException if {@code copies} is negative
     */
    public static Expectation expectation(NetworkProfile profile, List<Long> requestSizes, int concurrency,
            int copies) {
        return expectation(profile, requestSizes, List.of(), concurrency, copies, Budget.NONE, Client.FRESH,
                READS_BY_WINDOW);
    }

    /**
     * {@link #expectation(NetworkProfile, List, int, int)} with the requests sent in tasks, as retrieval's read window
     * sends them: {@code requestsPerTask} says how many consecutive requests each task sends at once (empty: one
     * each), and {@code concurrency} counts tasks in flight, not requests. A task holds its slot until the last of
     * its requests is done, so it waits for the slowest of them. A paper-mode L3 row group is one task of 7 column
     * chunks: priced one chunk at a time it took 0.2 s more at tiny on t3.medium than the chunks sent together.
     * Hedged and raced copies each hold a slot of their own, as in retrieval.
     *
     * <pre>{@code
     * // two row groups of a 40 MB blob chunk and six small chunks each, one row group in flight
     * List<Long> chunks = List.of(40_000_000L, 9_000L, 9_000L, 9_000L, 9_000L, 9_000L, 9_000L,
     *         40_000_000L, 9_000L, 9_000L, 9_000L, 9_000L, 9_000L, 9_000L);
     * Duration t = NetworkModel.expectation(profile, chunks, List.of(7, 7), 1, 0).time();
     * }</pre>
     *
     * @throws IllegalArgumentException if an entry of {@code requestsPerTask} is negative, or the entries do not add
     *                                  up to the requests (a task of no request is allowed: it takes no time)
     */
    public static Expectation expectation(NetworkProfile profile, List<Long> requestSizes,
            List<Integer> requestsPerTask, int concurrency, int copies) {
        return expectation(profile, requestSizes, requestsPerTask, concurrency, copies, Budget.NONE, Client.FRESH,
                READS_BY_WINDOW);
    }

    /**
     * {@link #expectation(NetworkProfile, List, List, int, int)} within a byte {@code budget}, as retrieval's
     * {@code maxBufferedBytes}: a task goes only while the bytes of the tasks sent and not yet handed over, its own
     * included, fit (or when nothing is outstanding), and a task's bytes are handed over when it is done or, in
     * dataset order, when it and every task before it are. So in dataset order a late task holds back the budget of
     * the tasks after it, although they are done: a head-of-line wait that slots alone do not show. In hedged and
     * raced batches each copy holds its bytes of the budget too, from when it is sent until it ends or is cancelled,
     * and a copy that does not fit waits, and the tasks after it with it, as retrieval sends them.
     *
     * <pre>{@code
     * NetworkModel.Budget inOrder = new NetworkModel.Budget(64L << 20, true);
     * Duration t = NetworkModel.expectation(profile, chunks, perRowGroup, 149, 0, inOrder).time();
     * }</pre>
     */
    public static Expectation expectation(NetworkProfile profile, List<Long> requestSizes,
            List<Integer> requestsPerTask, int concurrency, int copies, Budget budget) {
        return expectation(profile, requestSizes, requestsPerTask, concurrency, copies, budget, Client.FRESH,
                READS_BY_WINDOW);
    }

    /**
     * {@link #expectation(NetworkProfile, List, List, int, int, Budget)} for a {@code client} that starts with
     * connections open (a warm client's, left by its earlier run) and takes time to send each request: each run starts
     * {@linkplain #startWith with it}.
     *
     * <pre>{@code
     * NetworkModel.Client warm = new NetworkModel.Client(130, Duration.ofNanos(20_000));
     * Duration t = NetworkModel.expectation(profile, sizes, List.of(), 297, 3, NetworkModel.Budget.NONE, warm).time();
     * }</pre>
     *
     * @param client what the client brings: connections it holds open, its time to send a request
     * @throws IllegalArgumentException if the client holds more connections than the profile allows, or as the
     *                                  overload without a client throws
     */
    public static Expectation expectation(NetworkProfile profile, List<Long> requestSizes,
            List<Integer> requestsPerTask, int concurrency, int copies, Budget budget, Client client) {
        return expectation(profile, requestSizes, requestsPerTask, concurrency, copies, budget, client,
                READS_BY_WINDOW);
    }

    /**
     * Bytes a batch may hold sent and not yet handed over, and whether they are handed over in the order the tasks
     * were sent (dataset order) or as each completes.
     *
     * <pre>{@code
     * NetworkModel.Budget budget = new NetworkModel.Budget(QueryOptions.DEFAULT_MAX_BUFFERED_BYTES, true);
     * }</pre>
     *
     * @param bytes   at most this many bytes of tasks sent and not handed over; positive ({@link Long#MAX_VALUE}: none)
     * @param inOrder whether a done task's bytes wait for every task before it to be done
     */
    public record Budget(long bytes, boolean inOrder) {
        /** No byte budget. */
        public static final Budget NONE = new Budget(Long.MAX_VALUE, false);

        public Budget {
            if (bytes <= 0) {
                throw new IllegalArgumentException("A byte budget must be positive, got " + bytes);
            }
        }
    }

    /**
     * {@link #expectation(NetworkProfile, List, int, int)} simulating about {@code readBudget} requests over all its
     * runs (at least one run, at most {@value #EXPECTATION_RUNS}): a coarser, cheaper estimate, for a choice made
     * while a query waits ({@link HedgeDelay#racedCopies}).
     */
    static Expectation expectation(NetworkProfile profile, List<Long> requestSizes, int concurrency, int copies,
            int readBudget) {
        return expectation(profile, requestSizes, List.of(), concurrency, copies, Budget.NONE, Client.FRESH,
                readBudget);
    }

    private static Expectation expectation(NetworkProfile profile, List<Long> requestSizes,
            List<Integer> requestsPerTask, int concurrency, int copies, Budget budget, Client client, int readBudget) {
        requireNonNull(profile, "profile is null");
        requireNonNull(budget, "budget is null");
        requireNonNull(client, "client is null");
        List<List<Long>> tasks = tasks(requestSizes, requestsPerTask);
        if (copies < 0) {
            throw new IllegalArgumentException("copies must be >= 0, got " + copies);
        }
        checkConcurrency(concurrency);
        boolean hedged = copies > 0;
        if (profile.latencyJitter() == 0 || profile.firstByteLatency().isZero()) {
            return new Expectation(run(withMedianLatency(profile).startWith(client), tasks, concurrency, budget), 0, 0);
        }
        // Copies of a raced read are requests the runs simulate too.
        int simulated = Math.max(1, requestSizes.size() * Math.max(1, copies));
        // A batch sent in one window waits for the slowest of all its reads, so its time varies the most from draw
        // to draw: it gets more runs.
        // (Only a prediction's: a choice made while a query waits keeps its own, cheaper budget.)
        int reads = readBudget != READS_BY_WINDOW ? readBudget
                : tasks.size() <= concurrency ? ONE_WINDOW_READS : EXPECTATION_READS;
        int runs = Math.max(1, Math.min(EXPECTATION_RUNS, reads / simulated));
        long sum = 0;
        long hedges = 0;
        long duplicateBytes = 0;
        for (int run = 1; run <= runs; run++) {
            // Spread seeds: java.util.Random's first draws from seeds 1, 2, 3 ... are correlated (16 runs from them
            // put one read at 1.65 times the median latency, not 1.13).
            NetworkModel model = withJitter(profile, run * 0x9E3779B97F4A7C15L).startWith(client);
            if (hedged) {
                Expectation one = runHedged(model, tasks, concurrency, copies, budget);
                sum += one.time().toNanos();
                hedges += Math.round(one.hedgedRequests());
                duplicateBytes += Math.round(one.duplicateBytes());
            } else {
                sum += run(model, tasks, concurrency, budget).toNanos();
            }
        }
        return new Expectation(Duration.ofNanos(Math.round((double) sum / runs)), (double) hedges / runs,
                (double) duplicateBytes / runs);
    }

    /**
     * What {@link #expectation} expects of a batch: its time, and the hedges it sends with the bytes they add.
     *
     * <pre>{@code
     * double extraRequests = NetworkModel.expectation(profile, sizes, 297, true).hedgedRequests();
     * }</pre>
     *
     * @param time           from the first request to the last byte, mean over the runs
     * @param hedgedRequests duplicates sent, mean over the runs (requests beyond the batch's)
     * @param duplicateBytes bytes received beyond the batch's own, mean over the runs: what the cancelled loser of
     *                       each late hedge had received when the winner completed (all of it if both completed at
     *                       once); a raced copy cancelled at the winner's first byte has received none
     */
    public record Expectation(Duration time, double hedgedRequests, double duplicateBytes) {
        public Expectation {
            requireNonNull(time, "time is null");
            if (!(hedgedRequests >= 0) || !(duplicateBytes >= 0)) {
                throw new IllegalArgumentException("hedgedRequests and duplicateBytes must be >= 0, got "
                        + hedgedRequests + " and " + duplicateBytes);
            }
        }
    }

    /**
     * {@code requestSizes} as tasks of {@code requestsPerTask} consecutive requests each (empty: one each), checked:
     * no size null, no count negative, the tasks' requests the list's. A task of no request takes no time and no
     * slot, so it is left out.
     */
    private static List<List<Long>> tasks(List<Long> requestSizes, List<Integer> requestsPerTask) {
        requireNonNull(requestSizes, "requestSizes is null");
        requireNonNull(requestsPerTask, "requestsPerTask is null");
        for (Long size : requestSizes) {
            requireNonNull(size, "a request size in the list to predict is null");
        }
        if (requestsPerTask.isEmpty()) {
            return requestSizes.stream().map(List::of).toList();
        }
        List<List<Long>> tasks = new ArrayList<>(requestsPerTask.size());
        int from = 0;
        for (int t = 0; t < requestsPerTask.size(); t++) {
            Integer count = requestsPerTask.get(t);
            if (count == null || count < 0 || count > requestSizes.size() - from) {
                throw new IllegalArgumentException("requestsPerTask[" + t + "] is " + count + ", after the first "
                        + from + " of " + requestSizes.size() + " requests: a task sends 0 or more, and together"
                        + " the tasks send the requests listed");
            }
            if (count > 0) {
                tasks.add(requestSizes.subList(from, from + count));
            }
            from += count;
        }
        if (from != requestSizes.size()) {
            throw new IllegalArgumentException("requestsPerTask " + requestsPerTask + " sends " + from
                    + " requests, not the " + requestSizes.size() + " listed");
        }
        return tasks;
    }

    private static void checkConcurrency(int concurrency) {
        if (concurrency < 1) {
            throw new IllegalArgumentException("Prediction concurrency must be >= 1, got " + concurrency);
        }
    }

    /**
     * One run of {@code tasks}, {@code concurrency} in flight: each sends its requests at once and holds its slot
     * until the last is done; a new task goes the moment one ends.
     */
    private static Duration run(NetworkModel model, List<List<Long>> tasks, int concurrency, Budget budget) {
        checkConcurrency(concurrency);
        Map<Transfer, Integer> taskOf = new IdentityHashMap<>();
        int[] requestsLeft = new int[tasks.size()];
        long[] taskBytes = taskBytes(tasks);
        int sent = 0;
        int handedOver = 0;   // in dataset order: tasks [handedOver, sent) hold the budget
        long held = 0;
        int inFlight = 0;
        while (true) {
            while (inFlight < concurrency && sent < tasks.size()) {
                boolean outstanding = budget.inOrder() ? handedOver < sent : inFlight > 0;
                if (outstanding && held + taskBytes[sent] > budget.bytes()) {
                    break;   // the budget, not a slot, holds it back
                }
                requestsLeft[sent] = tasks.get(sent).size();
                held += taskBytes[sent];
                for (Long size : tasks.get(sent)) {
                    taskOf.put(model.submit(size), sent);
                }
                sent++;
                inFlight++;
            }
            if (inFlight == 0) {
                return Duration.ofNanos(model.nowNanos());
            }
            for (Transfer completed : model.advanceTo(model.nextEventNanos())) {
                int t = taskOf.remove(completed);
                if (--requestsLeft[t] == 0) {
                    inFlight--;
                    if (!budget.inOrder()) {
                        held -= taskBytes[t];
                    }
                }
            }
            // In dataset order, done tasks are handed over only behind every task before them.
            while (budget.inOrder() && handedOver < sent && requestsLeft[handedOver] == 0) {
                held -= taskBytes[handedOver++];
            }
        }
    }

    /** The bytes each of {@code tasks} reads. */
    private static long[] taskBytes(List<List<Long>> tasks) {
        long[] bytes = new long[tasks.size()];
        for (int t = 0; t < tasks.size(); t++) {
            for (Long size : tasks.get(t)) {
                bytes[t] += size;
            }
        }
        return bytes;
    }

    /**
     * One read of a hedged run: its request, when its hedge is next checked, its copies once sent, and its task's
     * reads not yet done. The original's slot is its task's: held until the task's last read is done, even if the
     * original was cancelled (a copy won the race), as retrieval holds a task's slot until the task is answered.
     * Each copy holds a slot of its own.
     */
    private static final class HedgedRead {
        final Transfer original;
        /** The read's task, by its index in the batch. */
        final int task;
        final int[] taskReadsLeft;
        long nextCheck;
        final List<Transfer> copies = new ArrayList<>(2);
        boolean done;
        /** Raced, and one copy's first byte arrived: the others were cancelled, and no more copies go. */
        boolean tied;

        HedgedRead(Transfer original, int task, int[] taskReadsLeft, long nextCheck) {
            this.original = original;
            this.task = task;
            this.taskReadsLeft = taskReadsLeft;
            this.nextCheck = nextCheck;
        }
    }

    /**
     * {@link #run} with the hedging rule of {@link #expectation} ({@code copies} 1) or racing ({@code copies} of 2
     * or more), within {@code budget} as retrieval holds it (a copy holds its bytes while it runs); one run's time,
     * extra requests and duplicate bytes.
     */
    private static Expectation runHedged(NetworkModel model, List<List<Long>> tasks, int concurrency, int copies,
            Budget budget) {
        NetworkProfile profile = model.profile();
        long[] taskBytes = taskBytes(tasks);
        boolean[] taskDone = new boolean[tasks.size()];
        int sent = 0;
        int handedOver = 0;   // in dataset order: tasks [handedOver, sent) hold the budget
        int holding = 0;      // tasks sent whose bytes are not handed over
        long held = 0;        // bytes of those tasks and of copies running
        Map<Transfer, HedgedRead> reads = new IdentityHashMap<>();
        // Reads not yet hedged, by when they are next checked (HedgeDelay: a check may put off the next).
        PriorityQueue<HedgedRead> pending = new PriorityQueue<>(
                Comparator.comparingLong((HedgedRead r) -> r.nextCheck));
        // Hedges that fell due while every slot was taken, in the order they fell due.
        ArrayDeque<HedgedRead> due = new ArrayDeque<>();
        long bytesInFlight = 0;
        int inFlight = 0;
        long hedges = 0;
        long duplicateBytes = 0;
        while (true) {
            // Fill free slots: hedges that are due first, then new reads (as the retrieval launches them).
            while (inFlight < concurrency) {
                HedgedRead hedge = due.peek();
                if (hedge != null) {
                    if (hedge.done || hedge.tied) {
                        due.poll();
                        continue;
                    }
                    if (held + hedge.original.bytes() > budget.bytes()) {
                        break;   // the budget holds the copy back, and the tasks after it
                    }
                    due.poll();
                    held += hedge.original.bytes();
                    bytesInFlight += hedge.original.bytes();
                    Transfer copy = model.submit(hedge.original.bytes());
                    hedge.copies.add(copy);
                    reads.put(copy, hedge);
                    hedges++;
                    inFlight++;
                } else if (sent < tasks.size()) {
                    boolean outstanding = budget.inOrder() ? handedOver < sent : holding > 0;
                    if (outstanding && held + taskBytes[sent] > budget.bytes()) {
                        break;   // the budget, not a slot, holds it back
                    }
                    int t = sent++;
                    List<Long> task = tasks.get(t);
                    held += taskBytes[t];
                    holding++;
                    int[] left = {task.size()};
                    for (long bytes : task) {
                        bytesInFlight += bytes;
                        Transfer transfer = model.submit(bytes);
                        HedgedRead read = new HedgedRead(transfer, t, left, plusNanos(model.nowNanos(),
                                HedgeDelay.firstCheckNanos(profile, bytes)));
                        reads.put(transfer, read);
                        if (copies > 1) {
                            // Raced: its copies go now, before the next task. Each read's go to the front as it is
                            // sent, as retrieval queues them, so a task's last read's copies go first.
                            for (int i = 1; i < copies; i++) {
                                due.addFirst(read);
                            }
                        } else {
                            pending.add(read);
                        }
                    }
                    inFlight++;   // the task's slot
                } else {
                    break;
                }
            }
            if (inFlight == 0) {
                break;
            }
            while (!pending.isEmpty() && pending.peek().done) {
                pending.poll();
            }
            long nextCheck = pending.isEmpty() ? Long.MAX_VALUE : pending.peek().nextCheck;
            // First bytes matter only to a race: late hedges end at the winner's last byte.
            List<Transfer> started = copies > 1 ? new ArrayList<>() : List.of();
            List<Transfer> completedNow = model.advanceTo(Math.min(model.nextEventNanos(), nextCheck),
                    copies > 1 ? started : null);
            for (Transfer first : started) {
                // A raced read's first copy to answer: the others go before they move a byte.
                HedgedRead read = reads.get(first);
                if (read == null || read.done || read.tied) {
                    continue;
                }
                read.tied = true;
                for (Transfer other : attempts(read)) {
                    if (other != first && !other.isDone() && model.cancel(other)) {
                        reads.remove(other);
                        bytesInFlight -= other.bytes();
                        duplicateBytes += other.receivedBytes();
                        if (other != read.original) {
                            inFlight--;   // a copy's own slot and budget; the original's are its task's
                            held -= other.bytes();
                        }
                    }
                }
            }
            for (Transfer completed : completedNow) {
                HedgedRead read = reads.remove(completed);
                bytesInFlight -= completed.bytes();
                if (completed != read.original) {
                    inFlight--;
                    held -= completed.bytes();
                }
                if (read.done) {
                    // Both attempts completed at the same instant: the second is all duplicate bytes.
                    duplicateBytes += completed.bytes();
                    continue;
                }
                read.done = true;
                if (--read.taskReadsLeft[0] == 0) {
                    inFlight--;   // the task's slot
                    taskDone[read.task] = true;
                    if (!budget.inOrder()) {
                        held -= taskBytes[read.task];
                        holding--;
                    }
                }
                for (Transfer other : attempts(read)) {
                    if (other != completed && !other.isDone() && model.cancel(other)) {
                        reads.remove(other);
                        bytesInFlight -= other.bytes();
                        if (other != read.original) {
                            inFlight--;
                            held -= other.bytes();
                        }
                        duplicateBytes += other.receivedBytes();
                    }
                }
            }
            // In dataset order, done tasks are handed over only behind every task before them.
            while (budget.inOrder() && handedOver < sent && taskDone[handedOver]) {
                held -= taskBytes[handedOver++];
                holding--;
            }
            while (!pending.isEmpty() && pending.peek().nextCheck <= model.nowNanos()) {
                HedgedRead read = pending.poll();
                if (read.done) {
                    continue;
                }
                long wait = HedgeDelay.recheckNanos(profile, read.original.bytes(), bytesInFlight,
                        model.nowNanos() - read.original.submittedNanos());
                if (wait == 0) {
                    due.add(read);
                } else if (wait != Long.MAX_VALUE) {
                    read.nextCheck = plusNanos(model.nowNanos(), wait);
                    pending.add(read);
                }
            }
        }
        return new Expectation(Duration.ofNanos(model.nowNanos()), hedges, duplicateBytes);
    }

    /** A hedged or raced read's requests: its original, then its copies. */
    private static List<Transfer> attempts(HedgedRead read) {
        List<Transfer> attempts = new ArrayList<>(1 + read.copies.size());
        attempts.add(read.original);
        attempts.addAll(read.copies);
        return attempts;
    }

    /** The profile this model times. */
    public NetworkProfile profile() {
        return profile;
    }

    /** The model's current time, from zero. */
    public long nowNanos() {
        return now;
    }

    /**
     * Adds a request for a response of {@code bytes} bytes at the current time.
     *
     * @throws IllegalArgumentException if {@code bytes} is negative
     */
    public Transfer submit(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("A request's response size must be >= 0 bytes, got " + bytes);
        }
        long leaves = now;
        if (sendNanos > 0) {
            // The client sends one request at a time: this one leaves when the sender has sent the ones before it.
            senderFreeAt = plusNanos(Math.max(now, senderFreeAt), sendNanos);
            leaves = senderFreeAt;
        }
        Transfer transfer = new Transfer(nextId++, bytes, sampleLatencyNanos(), now, leaves);
        if (onConnection.size() < openConnections) {
            send(transfer, false);
        } else if (openConnections < profile.maxConnections()) {
            openConnections++;
            send(transfer, true);
        } else {
            waitingForConnection.add(transfer);
        }
        return transfer;
    }

    /**
     * Cancels {@code transfer} at the model's current time, as a client abandons a request (a hedged read's loser).
     * Its connection is closed, not returned to the pool (an HTTP/1.1 response cannot be abandoned on a connection
     * that stays usable): a request waiting for a connection opens a new one and pays the set-up. Bytes that have
     * arrived stay arrived ({@link Transfer#receivedBytes()}). A request still waiting for a connection just leaves
     * the queue. Advance the model to the moment of cancelling first.
     *
     * <pre>{@code
     * model.advanceTo(now);
     * if (model.cancel(loser)) extraBytes += loser.receivedBytes();
     * }</pre>
     *
     * @return whether it was in flight (false if it had completed or was cancelled already)
     */
    public boolean cancel(Transfer transfer) {
        requireNonNull(transfer, "transfer is null");
        if (transfer.isDone() || transfer.cancelled) {
            return false;
        }
        if (waitingForConnection.remove(transfer)) {
            transfer.remainingBytes = transfer.bytes;
            transfer.cancelled = true;
            return true;
        }
        if (!onConnection.remove(transfer)) {
            throw new IllegalArgumentException("Transfer " + transfer + " is not one of this model's");
        }
        if (transfer.receiving) {
            transfer.receiving = false;
            receiving--;
        } else {
            transfer.remainingBytes = transfer.bytes;
        }
        transfer.cancelled = true;
        openConnections--;
        Transfer waiting = waitingForConnection.poll();
        if (waiting != null) {
            openConnections++;
            send(waiting, true);
        }
        return true;
    }

    /** When the next first byte, completion or change of rate happens; {@link Long#MAX_VALUE} if nothing is due. */
    public long nextEventNanos() {
        dropCreditWorthLessThanANanosecond();
        long next = Long.MAX_VALUE;
        double minRemaining = Double.POSITIVE_INFINITY;
        for (Transfer transfer : onConnection) {
            if (transfer.receiving) {
                minRemaining = Math.min(minRemaining, transfer.remainingBytes);
            } else {
                next = Math.min(next, transfer.firstByteNanos);
            }
        }
        if (receiving > 0) {
            double rate = ratePerTransfer();
            next = Math.min(next, plusNanos(now, secondsToNanos(minRemaining, rate)));
            double drain = creditDrainPerSecond(rate);
            if (drain > 0) {
                next = Math.min(next, plusNanos(now, secondsToNanos(burstCredit, drain)));
            }
        }
        return next;
    }

    /**
     * Moves the model to {@code targetNanos}, and returns the requests whose last byte arrived on the way, in the
     * order they completed.
     *
     * @throws IllegalArgumentException if the target is before the current time
     */
    public List<Transfer> advanceTo(long targetNanos) {
        return advanceTo(targetNanos, null);
    }

    /**
     * {@link #advanceTo(long)}, adding to {@code firstBytes} (if not null) the requests whose first byte arrived on
     * the way, in the order they arrived: what a client that abandons a race's losers at the winner's first byte
     * hears.
     *
     * <pre>{@code
     * List<NetworkModel.Transfer> started = new ArrayList<>();
     * List<NetworkModel.Transfer> done = model.advanceTo(model.nextEventNanos(), started);
     * }</pre>
     */
    public List<Transfer> advanceTo(long targetNanos, List<Transfer> firstBytes) {
        if (targetNanos < now) {
            throw new IllegalArgumentException("Cannot move the network model back from " + now + " ns to "
                    + targetNanos + " ns");
        }
        List<Transfer> completed = new ArrayList<>();
        while (true) {
            long next = nextEventNanos();
            if (next > targetNanos) {
                flow(targetNanos - now);
                now = targetNanos;
                return completed;
            }
            flow(next - now);
            now = next;
            handleEventsNow(completed, firstBytes);
        }
    }

    /** Requests submitted and not completed, waiting for a connection or not. */
    public int requestsInFlight() {
        return waitingForConnection.size() + onConnection.size();
    }

    /** Requests waiting for a connection. */
    public int queuedRequests() {
        return waitingForConnection.size();
    }

    /** Connections opened so far (never more than {@code maxConnections}). */
    public int openConnections() {
        return openConnections;
    }

    /** Open connections with no request on them. */
    public int idleConnections() {
        return openConnections - onConnection.size();
    }

    /** Burst credit left, bytes above baseline. */
    public double burstCreditBytes() {
        return burstCredit;
    }

    /** The rate each receiving transfer gets: min(per connection, host cap / transfers receiving). */
    private double ratePerTransfer() {
        if (receiving == 0) {
            return 0;
        }
        return Math.min(profile.connectionBytesPerSecond(), hostCap() / receiving);
    }

    private double hostCap() {
        HostBandwidth host = profile.host();
        return host.bursts() && burstCredit > 0 ? host.burstBytesPerSecond() : host.baselineBytesPerSecond();
    }

    /** How fast the burst bucket empties at this per-transfer rate (negative: it fills). */
    private double creditDrainPerSecond(double rate) {
        HostBandwidth host = profile.host();
        if (!host.bursts() || burstCredit <= 0) {
            return 0;
        }
        return receiving * rate - host.baselineBytesPerSecond();
    }

    /**
     * Credit that would run out in under half a nanosecond is treated as gone, so the model never schedules an
     * event for "now" that changes nothing (which would loop), and rounding noise while running at exactly the
     * baseline cannot flip the cap to burst for an instant.
     */
    private void dropCreditWorthLessThanANanosecond() {
        if (burstCredit <= 0) {
            burstCredit = 0;
            return;
        }
        double drain = creditDrainPerSecond(ratePerTransfer());
        if (drain > 0 && secondsToNanos(burstCredit, drain) == 0) {
            burstCredit = 0;
        }
    }

    /** Lets {@code nanos} pass at the current rates: bodies flow and the burst bucket drains or fills. */
    private void flow(long nanos) {
        double rate = ratePerTransfer();
        rateOverLastInterval = rate;
        if (nanos == 0) {
            return;
        }
        double seconds = nanos / NANOS_PER_SECOND;
        if (receiving > 0) {
            for (Transfer transfer : onConnection) {
                if (transfer.receiving) {
                    transfer.remainingBytes = Double.isInfinite(rate) ? 0 : transfer.remainingBytes - rate * seconds;
                }
            }
        }
        HostBandwidth host = profile.host();
        if (host.bursts()) {
            double refill = (host.baselineBytesPerSecond() - receiving * rate) * seconds;
            burstCredit = Math.max(0, Math.min(maxBurstCredit, burstCredit + refill));
        }
    }

    private void handleEventsNow(List<Transfer> completed, List<Transfer> firstBytes) {
        List<Transfer> finished = new ArrayList<>();
        for (Transfer transfer : onConnection) {
            // Judged at the rate that applied up to now: the rate after this instant may differ.
            if (transfer.receiving && secondsToNanos(transfer.remainingBytes, rateOverLastInterval) == 0) {
                finished.add(transfer);
            }
        }
        for (Transfer transfer : onConnection) {
            if (!transfer.receiving && transfer.firstByteNanos <= now) {
                transfer.receiving = true;
                transfer.remainingBytes = transfer.bytes;
                receiving++;
                if (firstBytes != null) {
                    firstBytes.add(transfer);
                }
                if (transfer.bytes == 0) {
                    finished.add(transfer);
                }
            }
        }
        for (Transfer transfer : finished) {
            onConnection.remove(transfer);
            receiving--;
            transfer.receiving = false;
            transfer.remainingBytes = 0;
            transfer.completedNanos = now;
            completed.add(transfer);
            Transfer waiting = waitingForConnection.poll();
            if (waiting != null) {
                send(waiting, false);
            }
        }
    }

    private void send(Transfer transfer, boolean newConnection) {
        transfer.sentNanos = now;
        transfer.newConnection = newConnection;
        // It leaves once it has a connection and the client has sent it, whichever is later (a request that waited
        // for a connection was sent long before one freed).
        transfer.firstByteNanos = plusNanos(plusNanos(Math.max(now, transfer.leavesNanos),
                newConnection ? setupNanos : 0), transfer.latencyNanos);
        onConnection.add(transfer);
    }

    private long sampleLatencyNanos() {
        double sigma = profile.latencyJitter();
        if (jitter == null || sigma == 0 || medianLatencyNanos == 0) {
            return medianLatencyNanos;
        }
        // Lognormal around the median: ln(latency) ~ N(ln(median), sigma^2).
        return Math.round(medianLatencyNanos * Math.exp(sigma * jitter.nextGaussian()));
    }

    /** Time to move {@code bytes} at {@code bytesPerSecond}, rounded to the nearest nanosecond, saturating. */
    private static long secondsToNanos(double bytes, double bytesPerSecond) {
        if (bytes <= 0 || Double.isInfinite(bytesPerSecond)) {
            return 0;
        }
        return Math.round(bytes / bytesPerSecond * NANOS_PER_SECOND);
    }

    /** {@code duration} in nanoseconds, {@link Long#MAX_VALUE} for one too long to count them (292 years). */
    static long saturatedNanos(Duration duration) {
        try {
            return duration.toNanos();
        } catch (ArithmeticException tooLong) {
            return duration.isNegative() ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
    }

    private static long plusNanos(long time, long nanos) {
        long sum = time + nanos;
        return ((time ^ sum) & (nanos ^ sum)) < 0 ? Long.MAX_VALUE : sum;
    }
}
