package io.layoutbench.api.cost;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.layout.PlannedRequest;
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
 * <p>Time is predicted with the same {@link NetworkModel} that the simulated network backend runs (median
 * latency, the given concurrency); D is the sum of the planned ranges, so it is exact when the plan is.
 *
 * <pre>{@code
 * CostModel model = new CostModel(Prices.s3Standard(), NetworkProfiles.get("t3.medium"));
 * Prediction cold = model.predict(dataset.plan(query, options), true, options.maxConcurrency());
 * CostBreakdown measured = model.cost(stats.transfer());
 * }</pre>
 */
public final class CostModel {

    private static final double SECONDS_PER_HOUR = 3600.0;

    private final Prices prices;
    private final NetworkProfile network;

    public CostModel(Prices prices, NetworkProfile network) {
        this.prices = requireNonNull(prices, "prices is null");
        this.network = requireNonNull(network, "network is null");
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
     * Predicts a query from its plan.
     *
     * @param plan        the query's requests
     * @param cold        whether the client has no cached metadata (the plan's metadata reads are sent first)
     * @param concurrency requests in flight at most
     */
    public Prediction predict(RetrievalPlan plan, boolean cold, int concurrency) {
        List<PlannedRequest> requests = cold ? plan.allRequests() : plan.dataRequests();
        Duration time = Duration.ZERO;
        if (cold && !plan.metadataRequests().isEmpty()) {
            // Metadata reads come one after another (each needs the previous: tail, then footer, then chunks).
            time = NetworkModel.predict(network, sizes(plan.metadataRequests()), 1);
        }
        if (!plan.dataRequests().isEmpty()) {
            time = time.plus(NetworkModel.predict(network, sizes(plan.dataRequests()), concurrency));
        }
        long bytes = requests.stream().mapToLong(PlannedRequest::bytes).sum();
        long gets = requests.stream().filter(r -> r.kind().isGetClass()).count();
        long puts = requests.size() - gets;
        return new Prediction(time, bytes, requests.size(), cost(bytes, gets, puts, time));
    }

    private static List<Long> sizes(List<PlannedRequest> requests) {
        List<Long> sizes = new ArrayList<>(requests.size());
        for (PlannedRequest request : requests) {
            sizes.add(request.bytes());
        }
        return sizes;
    }
}
