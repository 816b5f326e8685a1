package io.layoutbench.api.cost;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.layout.PlannedRequest;
import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.layout.RetrievalPlan;
import io.layoutbench.api.metrics.MetricsSnapshot;
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
 * <p>Time is predicted with the same {@link NetworkModel} that the simulated network backend runs (mean latency,
 * the given concurrency), plus the client's own work ({@link ClientWork}); D is the sum of the planned ranges, so it
 * is exact when the plan is.
 *
 * <pre>{@code
 * CostModel model = new CostModel(Prices.s3Standard(), NetworkProfiles.get("t3.medium"));
 * Prediction cold = model.predict(dataset.plan(query, options), true, options);
 * CostBreakdown measured = model.cost(stats.transfer());
 * }</pre>
 */
public final class CostModel {

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
     * <p>Data reads run {@link #effectiveConcurrency} at a time: as many as retrieval keeps in flight for reads of
     * the plan's (byte-weighted) typical size, {@link QueryOptions#readsInFlight}: enough to fill the link, within
     * the connection pool, the query's cap and its byte budget. Latency is the mean of the
     * profile's lognormal first-byte latency, {@code median x exp(sigma^2 / 2)}: with many requests in flight
     * their total wait is what counts, and the tail raises the mean above the median. The client's own work
     * ({@link #clientWork()}: checking the payload, and on a cold client decoding the metadata) is added.
     *
     * @param plan    the query's requests
     * @param cold    whether the client has no cached metadata (the plan's metadata reads are sent first)
     * @param options the query's options (concurrency, byte budget)
     */
    public Prediction predict(RetrievalPlan plan, boolean cold, QueryOptions options) {
        List<PlannedRequest> requests = cold ? plan.allRequests() : plan.dataRequests();
        NetworkProfile meanLatency = network.withFirstByteLatency(Duration.ofNanos(Math.round(
                network.firstByteLatency().toNanos() * Math.exp(network.latencyJitter() * network.latencyJitter()
                        / 2)))).withLatencyJitter(0);
        Duration time = Duration.ZERO;
        if (cold && !plan.metadataRequests().isEmpty()) {
            // Metadata reads go in rounds (a footer before the chunks it locates): as many at once as one round holds.
            int perRound = (plan.metadataRequests().size() + plan.metadataRounds() - 1) / plan.metadataRounds();
            time = NetworkModel.predict(meanLatency, sizes(plan.metadataRequests()), perRound);
        }
        if (!plan.dataRequests().isEmpty()) {
            int concurrency = effectiveConcurrency(plan.dataRequests(), options);
            time = time.plus(NetworkModel.predict(meanLatency, sizes(plan.dataRequests()), concurrency));
        }
        long metadataBytes = cold ? plan.metadataRequests().stream().mapToLong(PlannedRequest::bytes).sum() : 0;
        time = time.plus(Duration.ofNanos(Math.round(clientWork.seconds(plan.payloadBytes(), metadataBytes) * 1e9)));
        long bytes = requests.stream().mapToLong(PlannedRequest::bytes).sum();
        long gets = requests.stream().filter(r -> r.kind().isGetClass()).count();
        long puts = requests.size() - gets;
        return new Prediction(time, bytes, requests.size(), cost(bytes, gets, puts, time));
    }

    /** {@link #predict(RetrievalPlan, boolean, QueryOptions)} with default options but {@code concurrency}. */
    public Prediction predict(RetrievalPlan plan, boolean cold, int concurrency) {
        return predict(plan, cold, QueryOptions.defaults().withMaxConcurrency(concurrency));
    }

    /**
     * Reads in flight at once for {@code requests}: {@link QueryOptions#readsInFlight} of their typical size,
     * weighted by bytes (so one 64 MB row group among small reads counts as what it is); the query's cap when they
     * carry no bytes.
     */
    public static int effectiveConcurrency(List<PlannedRequest> requests, QueryOptions options) {
        return options.readsInFlight(requests.stream().mapToLong(PlannedRequest::bytes));
    }

    private static List<Long> sizes(List<PlannedRequest> requests) {
        List<Long> sizes = new ArrayList<>(requests.size());
        for (PlannedRequest request : requests) {
            sizes.add(request.bytes());
        }
        return sizes;
    }
}
