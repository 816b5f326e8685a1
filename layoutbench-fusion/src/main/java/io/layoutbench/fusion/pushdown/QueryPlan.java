package io.layoutbench.fusion.pushdown;

import static java.util.Objects.requireNonNull;

import java.time.Duration;

/**
 * How a query ran, chosen before it ran by pricing both plans with the {@link ClusterModel} (bytes, round trips,
 * and where the decoding and filtering happen), and why.
 *
 * <ul>
 *   <li>{@link Kind#PUSHDOWN}: Fusion's two rounds. Filters run on the nodes holding the filtered chunks and return
 *       bitmaps; then each projection is pushed down or its chunk fetched, per the {@link CostEquation}.</li>
 *   <li>{@link Kind#FETCH}: no filter round. The coordinator fetches every chunk the query needs, whole and
 *       compressed (from FAC blocks, so each from the one node holding it), and evaluates everything itself, as the
 *       baseline does. It wins when the filter round cannot pay for its round trip and bitmaps: a filtered column
 *       that is also projected and whose projection would be fetched anyway is decoded twice in Fusion's plan.</li>
 * </ul>
 *
 * <pre>{@code
 * QueryPlan plan = engine.execute(key, "SELECT l_tax FROM lineitem WHERE l_tax < 0.01", PushdownMode.FUSION)
 *         .report().plan();
 * System.out.println(plan.kind() + ": " + plan.reason());    // FETCH: fetch 12.1 ms ... < pushdown 15.3 ms ...
 * }</pre>
 *
 * @param kind              the plan that ran
 * @param pushdownEstimate  the modelled latency of the pushdown plan, estimated from the footer before running
 * @param fetchEstimate     the modelled latency of the fetch plan, estimated likewise
 * @param reason            why: the estimates (time, rounds, bytes, selectivity) or the mode that forced the plan
 */
public record QueryPlan(Kind kind, Duration pushdownEstimate, Duration fetchEstimate, String reason) {

    /** The two ways to run a query. */
    public enum Kind {
        /** Filter round on the nodes, then projections pushed down or fetched per the cost equation. */
        PUSHDOWN,
        /** The needed chunks fetched whole, everything evaluated at the coordinator. */
        FETCH;

        /** {@code pushdown} or {@code fetch}, as reports print it. */
        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    public QueryPlan {
        requireNonNull(kind, "kind is null");
        requireNonNull(pushdownEstimate, "pushdownEstimate is null");
        requireNonNull(fetchEstimate, "fetchEstimate is null");
        requireNonNull(reason, "reason is null");
    }

    @Override
    public String toString() {
        return kind.label() + ": " + reason;
    }
}
