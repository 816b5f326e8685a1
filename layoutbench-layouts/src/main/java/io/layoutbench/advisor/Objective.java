package io.layoutbench.advisor;

import java.util.Locale;

/**
 * What the advisor minimises over a workload: predicted time, predicted dollars, or dollars plus what the time is
 * worth to you. Dollars are the cost model's C: transfer, requests, and the client instance's hourly rate times T.
 * The trade-off adds {@code usdPerHour} for each hour of T on top, for a price of time the instance rate does not
 * cover (GPUs waiting for data, people waiting for results).
 *
 * <pre>{@code
 * Objective o = Objective.tradeoff(3.0);     // an hour of waiting is worth $3
 * double score = o.score(seconds, dollars);  // dollars + 3 x hours
 * }</pre>
 *
 * @param kind       time, cost or trade-off
 * @param usdPerHour for the trade-off, dollars per hour of predicted time; 0 otherwise
 */
public record Objective(Kind kind, double usdPerHour) {

    /** The three objectives. */
    public enum Kind {
        /** Predicted seconds. */
        TIME,
        /** Predicted dollars. */
        COST,
        /** Predicted dollars plus usdPerHour x predicted hours. */
        TRADEOFF;

        /** Lower-case name, as on the command line. */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public Objective {
        java.util.Objects.requireNonNull(kind, "kind is null");
        if (!(usdPerHour >= 0) || Double.isInfinite(usdPerHour)) {
            throw new IllegalArgumentException("usdPerHour must be a finite price >= 0, got " + usdPerHour);
        }
        if (kind != Kind.TRADEOFF && usdPerHour != 0) {
            throw new IllegalArgumentException("A price of time only applies to the trade-off objective");
        }
    }

    public static Objective time() {
        return new Objective(Kind.TIME, 0);
    }

    public static Objective cost() {
        return new Objective(Kind.COST, 0);
    }

    public static Objective tradeoff(double usdPerHour) {
        return new Objective(Kind.TRADEOFF, usdPerHour);
    }

    /** The score of an outcome of {@code seconds} and {@code dollars}; lower is better. */
    public double score(double seconds, double dollars) {
        return switch (kind) {
            case TIME -> seconds;
            case COST -> dollars;
            case TRADEOFF -> dollars + usdPerHour * seconds / 3600;
        };
    }

    /** The score formatted with its unit. */
    public String format(double score) {
        return kind == Kind.TIME ? String.format(Locale.ROOT, "%.3f s", score)
                : String.format(Locale.ROOT, "$%.6f", score);
    }

    /** For people: {@code time}, {@code cost}, {@code tradeoff ($3.00 per hour)}. */
    public String describe() {
        return kind == Kind.TRADEOFF ? String.format(Locale.ROOT, "tradeoff (dollars + $%.2f per hour of time)",
                usdPerHour) : kind.label();
    }
}
