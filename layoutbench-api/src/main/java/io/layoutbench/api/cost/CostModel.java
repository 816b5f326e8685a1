package io.layoutbench.api.cost;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.layout.PlannedRequest;
import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.layout.ResultOrder;
import io.layoutbench.api.layout.RetrievalPlan;
import io.layoutbench.api.metrics.MetricsSnapshot;
import io.layoutbench.api.network.HedgeDelay;
import io.layoutbench.api.network.NetworkModel;
import io.layoutbench.api.network.NetworkProfile;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The LayoutBench cost model, C = transfer price x D + hourly rate x T, extended with request prices, and its
 * prediction: from a query's {@link RetrievalPlan} (its requests and byte ranges) and a {@link NetworkProfile},
 * predict T, D, requests and C before the query runs.
 *
 * <p>Time is predicted with the same {@link NetworkModel} that the simulated network backend runs (its expected time
 * over the profile's latency draws, {@link NetworkModel#expected}; the query's reads in flight), plus the client's own
 * work ({@link ClientWork}); D is the sum of the planned ranges, so it is exact when the plan is.
 *
 * <pre>{@code
 * CostModel model = new CostModel(Prices.s3Standard(), NetworkProfiles.get("t3.medium"));
 * Prediction cold = model.predict(dataset.plan(query, options), true, options);
 * CostBreakdown measured = model.cost(stats.transfer());
 * }</pre>
 */
public final class CostModel {

    /**
     * The share of a cold client's metadata decoding that hides behind the waits of its metadata rounds (at most half
     * the rounds' time). Measured at mini on t3.medium, over L3's 38 cold metadata reads and fac's 42 (a fac client
     * decodes about 70 ms of location maps and footers): with all of it added, fac's raced cold queries were
     * predicted 15-45% over their time and L3's 1-24%; with all of it hidden (only the last read's decoding after the
     * rounds, as for the payload's check), fac's unraced (paper-mode) cold queries 15-33% under and L3's 2-16%; with
     * no network to wait for, none hides.
     */
    static final double METADATA_DECODING_HIDDEN = 0.5;

    private static final double SECONDS_PER_HOUR = 3600.0;

    private final Prices prices;
    private final NetworkProfile network;
    private final ClientWork clientWork;

    /** A model of {@code network}, with the client work of a 2-vCPU machine ({@link ClientWork#TWO_VCPU}). */
    public CostModel(Prices prices, NetworkProfile network) {
        this(prices, network, ClientWork.TWO_VCPU);
    }

    private CostModel(Prices prices, NetworkProfile network, ClientWork clientWork) {
        this.prices = requireNonNull(prices, "prices is null");
        this.network = requireNonNull(network, "network is null");
        this.clientWork = requireNonNull(clientWork, "clientWork is null");
    }

    /** This model with {@code clientWork}; {@link ClientWork#NONE} predicts the network alone. */
    public CostModel withClientWork(ClientWork clientWork) {
        return new CostModel(prices, network, clientWork);
    }

    /** The client's own work this model adds to the network's time. */
    public ClientWork clientWork() {
        return clientWork;
    }

    public Prices prices() {
        return prices;
    }

    public NetworkProfile network() {
        return network;
    }

    /** Dollars for a measured run: its bytes received, its requests and its wall time. */
    public CostBreakdown cost(MetricsSnapshot measured) {
        return cost(measured.bytesReceived() + measured.bytesSent(), measured.getClassRequests(),
                measured.putClassRequests(), measured.wallTime());
    }

    /** Dollars for {@code bytes} transferred, the given requests, and {@code time} of the client instance. */
    public CostBreakdown cost(long bytes, long getRequests, long putRequests, Duration time) {
        return new CostBreakdown(prices.transferDollars(bytes), prices.requestDollars(getRequests, putRequests),
                network.hourlyPriceUsd() * time.toNanos() / 1e9 / SECONDS_PER_HOUR);
    }

    /**
     * Predicts a query from its plan, with the concurrency, byte budget and network of {@code options}.
     *
     * <p>Data reads run {@link #effectiveConcurrency(RetrievalPlan, QueryOptions)} at a time: as many as retrieval
     * keeps in flight for reads of the plan's (byte-weighted) typical size, {@link QueryOptions#readsInFlight}: enough
     * to fill the link, within the connection pool, the query's cap and its byte budget. They are counted, as
     * retrieval counts them, by task ({@link RetrievalPlan#dataTasks}): a task sends its requests at once and holds its
     * slot until the last is done (a paper-mode L3 row group's column chunks). An unhedged batch is also held to the
     * query's byte budget, handed over in the query's order ({@link NetworkModel.Budget}): in dataset order a late
     * task holds back the budget of the done tasks after it. Times are expected times under the profile's
     * lognormal first-byte latency ({@link NetworkModel#expected}): a round of reads waits for its slowest, so the
     * more reads run side by side the further the round lies above the median latency. A warm client holds the
     * connections its earlier run of the query left open, one per read it had in flight (or per metadata read of a
     * round, if that is more), and its reads on them pay no connection set-up; a cold client holds those its metadata
     * rounds opened, and opens the rest. A raced read's losers were cancelled and closed theirs, so a warm raced
     * batch's copies beyond those open new ones and pay the set-up again, as in the simulated network. (Priced warm
     * with no set-up at all, l1's Q9 at mini on c8gb.large, six reads raced three ways, came out at 33.7 ms against a
     * measured 38; it is now priced at 37.5.)
     * A request the store answers from bytes an earlier one of the query brought ({@link PlannedRequest#sharing()})
     * adds no round trip; its bytes and the request itself count as the query's.
     *
     * <p>When the options hedge reads ({@link QueryOptions#hedgesReads()}), data reads are priced with the same rule
     * ({@link NetworkModel#expectation} with hedging): a read slower than {@link io.layoutbench.api.network.HedgeDelay}
     * gets a duplicate, so it takes {@code min(first, delay + second)}; the duplicates expected are added to the
     * requests, and the bytes their losers are expected to have received to the bytes. A batch that retrieval races
     * ({@link io.layoutbench.api.network.HedgeDelay#racedCopies}, decided as retrieval decides it: on the requests'
     * sizes, at the concurrency of requests of their size, on the same network) is priced raced, unless the plan says
     * its reads are not ({@link RetrievalPlan#racedReads}): every read's copies at once, the losers cancelled at the
     * winner's first byte, as retrieval does on a backend that signals first bytes
     * ({@link io.layoutbench.api.backend.SupportsFirstByteSignal}: the simulated network; on another it hedges late,
     * and this under-predicts such a batch). A cold run's metadata reads, each a round trip of its own, are raced the
     * same way where the plan's reads may be, and never hedged late: each read's copies are
     * {@link HedgeDelay#racedCopiesAlone}'s, as retrieval sends them, and the rounds' time is priced with the copies
     * most of them get.
     *
     * <p>The client's own work ({@link #clientWork()}): a cold client decodes its metadata before it can plan the
     * data reads, each object's as its read arrives, and half of that work hides behind the metadata rounds' waits
     * (at most half the rounds' time: {@link #METADATA_DECODING_HIDDEN}). The payload is checked as reads arrive,
     * while the others are still in flight, so only the check of the last read comes after the network's time, unless
     * checking is the slower of the two: {@code max(network, check - lastCheck) + lastCheck},
     * {@code lastCheck = check / tasks}, a typical task's check. (Adding the whole check, as before, over-predicted Q8
     * at mini by 30% with no latency jitter: 0.509 s against 0.387 s measured.) The client's time per request
     * ({@link ClientWork#perRequest}) adds to the check's work, once per data request sent (copies included), and
     * spaces the requests it sends at once, data and metadata ({@link NetworkModel.Client#sendTime}).
     *
     * @param plan    the query's requests
     * @param cold    whether the client has no cached metadata (the plan's metadata reads are sent first)
     * @param options the query's options (concurrency, byte budget)
     */
    public Prediction predict(RetrievalPlan plan, boolean cold, QueryOptions options) {
        List<PlannedRequest> requests = cold ? plan.allRequests() : plan.dataRequests();
        double seconds = 0;
        double hedgedRequests = 0;
        double duplicateBytes = 0;
        if (cold && !plan.metadataRequests().isEmpty()) {
            // Metadata reads go in rounds (a footer before the chunks it locates): as many at once as one round holds.
            // Reads the store answers from an earlier read's bytes wait for no round trip of their own.
            List<Long> sent = sizes(plan.metadataRequests(), true);
            int perRound = Math.max(1, readsPerRound(plan));
            int copies = 0;
            if (options.hedgesReads() && plan.racedReads()) {
                int[] readsByCopies = new int[HedgeDelay.MAX_RACED_COPIES + 1];
                for (long size : sent) {
                    int each = HedgeDelay.racedCopiesAlone(network, size);
                    readsByCopies[each]++;
                    hedgedRequests += each - 1;   // every copy goes: nothing holds them back
                }
                copies = mostCommon(readsByCopies);
            }
            // One choice for the rounds' time: the most common (each read's own, as retrieval sends them, for all
            // but a large read beside small ones: a metadata table of more than the bandwidth-delay product).
            double rounds = seconds(NetworkModel.expectation(network, sent, List.of(), perRound * Math.max(1, copies),
                    copies > 1 ? copies : 0, NetworkModel.Budget.NONE,
                    new NetworkModel.Client(0, clientWork.perRequest())).time());
            // Decoding hides behind the rounds' waits only in part: an object's metadata is decoded when its read
            // arrives, and its next read waits for that, while other objects' reads are in flight. Half of it, as
            // measured (METADATA_DECODING_HIDDEN).
            long metadataBytes = plan.metadataRequests().stream().mapToLong(PlannedRequest::bytes).sum();
            double decode = clientWork.seconds(0, metadataBytes);
            seconds += rounds + decode - METADATA_DECODING_HIDDEN * Math.min(rounds, decode);
        }
        if (!plan.dataRequests().isEmpty()) {
            int concurrency = effectiveConcurrency(plan, options);
            // Whether to race is decided on the requests, at the concurrency of requests of their size, as
            // retrieval decides it.
            List<Long> requestSizes = plan.dataRequests().stream().map(PlannedRequest::bytes).toList();
            int copies = !options.hedgesReads() ? 0 : !plan.racedReads() ? 1 : HedgeDelay.racedCopies(network,
                    requestSizes, options.readsInFlight(requestSizes.stream().mapToLong(Long::longValue)));
            List<Long> sizes = new ArrayList<>(requestSizes.size());
            List<Integer> requestsPerTask = new ArrayList<>();
            int reading = 0;   // tasks that send a request: the ones whose samples are checked as they arrive
            for (List<PlannedRequest> task : plan.dataTasks()) {
                reading += task.isEmpty() ? 0 : 1;
                // Only requests with a round trip of their own wait: a task whose bytes all came with earlier reads
                // waits for none, and the model leaves it out.
                List<Long> waiting = sizes(task, cold);
                sizes.addAll(waiting);
                requestsPerTask.add(waiting.size());
            }
            // Retrieval's byte budget holds the tasks sent and not yet handed over; in dataset order a late task holds
            // back the budget of those after it.
            NetworkModel.Budget budget = new NetworkModel.Budget(options.maxBufferedBytes(),
                    options.order() == ResultOrder.DATASET);
            // A warm client holds the connections its earlier run of the query left open; a cold one those its
            // metadata reads opened.
            NetworkModel.Client client = new NetworkModel.Client(
                    openConnections(plan, cold, requestsPerTask, concurrency, copies), clientWork.perRequest());
            NetworkModel.Expectation expected = NetworkModel.expectation(network, sizes, requestsPerTask, concurrency,
                    copies, budget, client);
            hedgedRequests += expected.hedgedRequests();
            duplicateBytes += expected.duplicateBytes();
            double transfer = seconds(expected.time());
            double check = clientWork.seconds(plan.payloadBytes(), 0);
            double lastCheck = check / Math.max(1, reading);
            // The work on every request sent, copies included, runs beside the transfers, as the checks do.
            double work = check + clientWork.requestSeconds(sizes.size() + Math.round(expected.hedgedRequests()));
            seconds += Math.max(transfer, work - lastCheck) + lastCheck;
        } else {
            seconds += clientWork.seconds(plan.payloadBytes(), 0);
        }
        Duration time = Duration.ofNanos(Math.round(seconds * 1e9));
        long bytes = requests.stream().mapToLong(PlannedRequest::bytes).sum() + Math.round(duplicateBytes);
        long hedges = Math.round(hedgedRequests);
        long gets = requests.stream().filter(r -> r.kind().isGetClass()).count() + hedges;
        long puts = requests.size() + hedges - gets;
        return new Prediction(time, bytes, requests.size() + hedges, cost(bytes, gets, puts, time));
    }

    /** {@link #predict(RetrievalPlan, boolean, QueryOptions)} with default options but {@code concurrency}. */
    public Prediction predict(RetrievalPlan plan, boolean cold, int concurrency) {
        return predict(plan, cold, QueryOptions.defaults().withMaxConcurrency(concurrency));
    }

    /**
     * Read tasks in flight at once for {@code plan}'s data reads, as retrieval's read window starts: the
     * {@link #effectiveConcurrency(List, QueryOptions)} of its tasks ({@link RetrievalPlan#dataTasks}), each weighed
     * by all the bytes it reads. A task sends its requests at once, so the requests in flight can be more.
     *
     * <pre>{@code
     * int tasks = CostModel.effectiveConcurrency(dataset.plan(query, options), options);
     * }</pre>
     */
    public static int effectiveConcurrency(RetrievalPlan plan, QueryOptions options) {
        return options.readsInFlight(plan.dataTasks().stream()
                .mapToLong(task -> task.stream().mapToLong(PlannedRequest::bytes).sum()));
    }

    /**
     * Reads in flight at once for {@code requests}: {@link QueryOptions#readsInFlight} of their typical size,
     * weighted by bytes (so one 64 MB row group among small reads counts as what it is); the query's cap when they
     * carry no bytes. Where each request is a read task of its own, this is where optimized retrieval's adaptive read
     * window starts ({@link #effectiveConcurrency(RetrievalPlan, QueryOptions)} for a plan's tasks), and where it
     * stays on a network that behaves as its profile says (no throttling, first-byte time that does not rise with
     * load): growing past the pool buys no throughput there, so the window returns to it (docs/RESULTS.md, "The window
     * adapts").
     *
     * <pre>{@code
     * int reads = CostModel.effectiveConcurrency(plan.metadataRequests(), options);
     * }</pre>
     */
    public static int effectiveConcurrency(List<PlannedRequest> requests, QueryOptions options) {
        return options.readsInFlight(requests.stream().mapToLong(PlannedRequest::bytes));
    }

    /**
     * The connections a client holds open when {@code plan}'s data reads start, within the profile's pool. A cold
     * client holds those its metadata reads left: one per read of a round. A warm one also holds those its earlier run
     * of the same query left: one per data read it had in flight at once (its first window of tasks, with a raced
     * read's copies in slots of their own), if that is more. A raced or hedged read's losers closed theirs when they
     * were cancelled, so a raced batch's copies beyond these open new connections and pay the set-up, in the
     * simulated network as on HTTP/1.1.
     */
    private int openConnections(RetrievalPlan plan, boolean cold, List<Integer> requestsPerTask, int concurrency,
            int copies) {
        long metadataReads = readsPerRound(plan);
        long dataReads = cold ? 0 : requestsPerTask.stream().filter(requests -> requests > 0)
                .limit(Math.max(1, concurrency / Math.max(1, copies))).mapToLong(Integer::intValue).sum();
        return (int) Math.min(network.maxConnections(), Math.max(dataReads, metadataReads));
    }

    /** The metadata reads of one of {@code plan}'s rounds that wait for a round trip of their own; 0 if none does. */
    private static int readsPerRound(RetrievalPlan plan) {
        int sent = (int) plan.metadataRequests().stream().filter(request -> request.roundTrip(true)).count();
        return sent == 0 ? 0 : (sent + plan.metadataRounds() - 1) / plan.metadataRounds();
    }

    private static double seconds(Duration duration) {
        return duration.toNanos() / 1e9;
    }

    /** The copy count most reads get ({@code counts[c]} reads get c; the fewest among ties), 0 if there are none. */
    private static int mostCommon(int[] counts) {
        int best = 0;
        for (int c = 1; c < counts.length; c++) {
            if (counts[c] > counts[best]) {
                best = c;
            }
        }
        return best;
    }

    /** The sizes of the requests that wait for a round trip of their own on a {@code cold} (or warm) run. */
    private static List<Long> sizes(List<PlannedRequest> requests, boolean cold) {
        List<Long> sizes = new ArrayList<>(requests.size());
        for (PlannedRequest request : requests) {
            if (request.roundTrip(cold)) {
                sizes.add(request.bytes());
            }
        }
        return sizes;
    }
}
