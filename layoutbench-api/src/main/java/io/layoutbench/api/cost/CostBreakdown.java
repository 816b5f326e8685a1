package io.layoutbench.api.cost;

/**
 * Dollars of one run, by source: transfer (bytes x $/GB), requests (GETs and PUTs), compute (instance hourly rate x
 * wall time). The paper's C is {@code transfer + compute}; requests are this library's extension.
 *
 * <pre>{@code
 * CostBreakdown cost = model.cost(metrics.snapshot());
 * System.out.printf("$%.6f (transfer %.6f, requests %.6f, compute %.6f)%n",
 *         cost.total(), cost.transferUsd(), cost.requestUsd(), cost.computeUsd());
 * }</pre>
 *
 * @param transferUsd dollars for bytes transferred
 * @param requestUsd  dollars for requests
 * @param computeUsd  dollars for the client instance's time
 */
public record CostBreakdown(double transferUsd, double requestUsd, double computeUsd) {

    public CostBreakdown {
        if (!(transferUsd >= 0) || !(requestUsd >= 0) || !(computeUsd >= 0)) {
            throw new IllegalArgumentException("Costs must be >= 0: transfer=" + transferUsd + ", requests="
                    + requestUsd + ", compute=" + computeUsd);
        }
    }

    /** Total dollars. */
    public double total() {
        return transferUsd + requestUsd + computeUsd;
    }

    /** The paper's cost: transfer plus compute, without request charges. */
    public double paperTotal() {
        return transferUsd + computeUsd;
    }
}
