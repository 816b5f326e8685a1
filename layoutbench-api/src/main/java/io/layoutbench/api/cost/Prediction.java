package io.layoutbench.api.cost;

import static java.util.Objects.requireNonNull;

import java.time.Duration;

/**
 * What the cost model expects a query to take, before it runs.
 *
 * <pre>{@code
 * Prediction p = model.predict(dataset.plan(query, options), true, options);
 * System.out.printf("%.2f s, %d bytes, %d requests, $%.6f%n",
 *         p.time().toNanos() / 1e9, p.bytes(), p.requests(), p.cost().total());
 * }</pre>
 *
 * @param time     predicted wall time
 * @param bytes    predicted bytes transferred: the plan's, plus what its hedged reads' duplicates are expected to add
 * @param requests predicted requests: the plan's, plus the duplicates its hedged reads are expected to send
 * @param cost     predicted dollars
 */
public record Prediction(Duration time, long bytes, long requests, CostBreakdown cost) {
    public Prediction {
        requireNonNull(time, "time is null");
        requireNonNull(cost, "cost is null");
        if (bytes < 0 || requests < 0) {
            throw new IllegalArgumentException("bytes and requests must be >= 0: " + bytes + ", " + requests);
        }
    }
}
