package io.layoutbench.advisor;

import io.layoutbench.api.layout.RetrievalMode;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Why a setting ranks where it does, in a few sentences built from its predictions: what it sends and reads over
 * the workload, which query weighs most in its score and how the layout serves it, and where it wins or loses
 * against a rival (for the best, the best of another layout; for the others, the best). Explained are the top three
 * and the best of every other layout. Its number formats are public, for renderers of the advice.
 */
public final class Reasons {

    static final int EXPLAINED_TOP = 3;

    private Reasons() {
    }

    /** {@code ranked} with reasons filled in for the entries worth explaining. */
    static List<Recommendation> explain(List<Recommendation> ranked, Objective objective, boolean cold) {
        Set<Integer> explained = new HashSet<>();
        Set<String> layoutsSeen = new HashSet<>();
        for (Recommendation r : ranked) {
            boolean bestOfItsLayout = layoutsSeen.add(r.layout());
            if (r.rank() <= EXPLAINED_TOP || bestOfItsLayout) {
                explained.add(r.rank());
            }
        }
        List<Recommendation> result = new ArrayList<>(ranked.size());
        Recommendation best = ranked.get(0);
        for (Recommendation r : ranked) {
            if (!explained.contains(r.rank())) {
                result.add(r);
                continue;
            }
            List<String> reasons = new ArrayList<>();
            reasons.add(totals(r));
            reasons.add(dominant(r, objective));
            Recommendation rival = r.rank() == 1
                    ? ranked.stream().filter(o -> !o.layout().equals(r.layout())).findFirst().orElse(null)
                    : best;
            if (rival != null) {
                reasons.add(versus(r, rival, objective));
            }
            reasons.add(metadata(r, cold));
            result.add(r.withReasons(reasons));
        }
        return result;
    }

    private static String totals(Recommendation r) {
        double samples = 0;
        double payload = 0;
        for (QueryOutcome q : r.queries()) {
            samples += q.weight() * q.samples();
            payload += q.weight() * q.payloadBytes();
        }
        return String.format(Locale.ROOT, "Over the workload: %s for %s, reading %s the payload (%s for %s).",
                plural(r.requests(), "request"), plural(samples, "sample"),
                ratio(payload == 0 ? 1 : r.bytes() / payload), megabytes(r.bytes()), megabytes(payload));
    }

    private static String dominant(Recommendation r, Objective objective) {
        if (r.score() == 0) {
            return "Every query scores 0 on this objective (a network without latency or bandwidth limits takes no "
                    + "time); ties are broken by bytes read.";
        }
        QueryOutcome top = r.queries().get(0);
        for (QueryOutcome q : r.queries()) {
            if (q.weight() * q.score() > top.weight() * top.score()) {
                top = q;
            }
        }
        double share = r.score() == 0 ? 0 : top.weight() * top.score() / r.score();
        return String.format(Locale.ROOT, "%s is %.0f%% of the score (%s): %s; %s, %s the payload.", top.id(),
                100 * share, objective.format(top.score()), served(r, top), megabytes(top.bytes()),
                ratio(top.readAmplification()));
    }

    /**
     * How the layout serves a query: "1,146 requests for 1,887 samples (ranges within 375KB merged)". L1, L2 and L3
     * are described in their own terms; another layout by its counts.
     */
    private static String served(Recommendation r, QueryOutcome q) {
        String requests = plural(q.requests(), "request");
        String samples = plural(q.samples(), "sample");
        if (r.mode() == RetrievalMode.OPTIMIZED && r.gapBytes().isEmpty()) {
            return q.requests() == q.samples() ? samples + ", a " + (r.layout().equals("l1") ? "GET" : "request")
                    + " each" : samples + " in " + requests;
        }
        if (r.mode() == RetrievalMode.PAPER) {
            if (r.layout().equals("l3")) {
                return samples + " read as " + requests + " for whole column chunks of the row groups holding them";
            }
            return q.requests() == q.samples() ? samples + ", a ranged GET each"
                    : samples + " in " + requests + " (paper retrieval)";
        }
        String gap = (r.gapBytes().orElse(0) == 0 ? "0 bytes" : bytes(r.gapBytes().orElse(0)))
                + (Double.isInfinite(r.maxReadAmplification()) ? ""
                        : ", as far as " + r.maxReadAmplification() + "x the bytes needed allows");
        if (r.layout().equals("l3")) {
            return samples + " from the blob pages holding them, pages within " + gap + " merged: " + requests;
        }
        return q.requests() < q.samples()
                ? count(q.samples()) + " ranges merged into " + requests + " (gap " + gap + ")"
                : samples + " in " + requests + " (no ranges within " + gap + " to merge)";
    }

    private static String versus(Recommendation r, Recommendation rival, Objective objective) {
        double difference = rival.score() == 0 ? 0 : (r.score() - rival.score()) / rival.score();
        QueryOutcome widest = null;
        double widestGap = -1;
        for (QueryOutcome q : r.queries()) {
            QueryOutcome other = rival.query(q.id());
            double gap = Math.abs(q.weight() * (q.score() - other.score()));
            if (gap > widestGap) {
                widestGap = gap;
                widest = q;
            }
        }
        QueryOutcome theirs = rival.query(widest.id());
        String who = r.rank() == 1 ? "the best " + rival.layout() + " (#" + rival.rank() + ", " + rival.settings()
                + ")" : "#1";
        if (Math.abs(difference) < 0.0005) {
            return widestGap == 0 ? "Scores the same as " + who + " on every query."
                    : String.format(Locale.ROOT, "Scores within 0.05%% of %s; they differ most on %s: %s and %s here, "
                            + "%s and %s there.", who, widest.id(), plural(widest.requests(), "request"),
                            megabytes(widest.bytes()), plural(theirs.requests(), "request"),
                            megabytes(theirs.bytes()));
        }
        return String.format(Locale.ROOT, "%.1f%% %s than %s, most of it on %s: %s and %s here, %s and %s there "
                + "(%s vs %s).", 100 * Math.abs(difference), difference < 0 ? "lower score" : "higher score", who,
                widest.id(), plural(widest.requests(), "request"), megabytes(widest.bytes()),
                plural(theirs.requests(), "request"), megabytes(theirs.bytes()), objective.format(widest.score()),
                objective.format(theirs.score()));
    }

    private static String metadata(Recommendation r, boolean cold) {
        QueryOutcome load = r.metadataLoad();
        String what = switch (r.layout()) {
            case "l3" -> "footers, metadata columns and page indexes";
            case "l1", "l2" -> "the metadata table";
            default -> "the metadata";
        };
        if (cold) {
            return String.format(Locale.ROOT, "Priced cold: each query first loads the %s it needs (all of it: %s "
                    + "in %s, %.3f s).", what, megabytes(load.bytes()), plural(load.requests(), "request"),
                    load.seconds());
        }
        return String.format(Locale.ROOT, "Not in the score: a fresh client first loads %s, %s in %s (%.3f s), "
                + "once.", what, megabytes(load.bytes()), plural(load.requests(), "request"), load.seconds());
    }

    /** {@code 1 request}, {@code 3 requests}, {@code 2.5 requests}. */
    static String plural(double value, String noun) {
        return count(value) + " " + (value == 1 ? noun : noun + "s");
    }

    /** {@code 1,146} or {@code 2.5}: a count as people read it, weighted counts with one decimal. */
    public static String count(double value) {
        return Math.abs(value - Math.rint(value)) < 1e-9 ? String.format(Locale.ROOT, "%,d", (long) Math.rint(value))
                : String.format(Locale.ROOT, "%,.1f", value);
    }

    static String megabytes(double bytes) {
        return bytes >= 1e9 ? String.format(Locale.ROOT, "%.2f GB", bytes / 1e9)
                : String.format(Locale.ROOT, "%.2f MB", bytes / 1e6);
    }

    /** {@code bytes} rounded for reading: {@code 375KB}, {@code 4.3KB}, {@code 1.5MB}, {@code 512B}. */
    public static String bytes(long bytes) {
        if (bytes < 1024) {
            return bytes + "B";
        }
        String[] units = {"KB", "MB", "GB", "TB"};
        double value = bytes;
        int unit = -1;
        while (value >= 1024 && unit < units.length - 1) {
            value /= 1024;
            unit++;
        }
        return (value >= 10 || value == Math.rint(value)
                ? String.format(Locale.ROOT, "%.0f", value) : String.format(Locale.ROOT, "%.1f", value)) + units[unit];
    }

    /** {@code 1.10x}. */
    public static String ratio(double ratio) {
        return String.format(Locale.ROOT, "%.2fx", ratio);
    }
}
