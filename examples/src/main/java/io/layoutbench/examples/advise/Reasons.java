package io.layoutbench.examples.advise;

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
 * and the best of every other layout.
 */
final class Reasons {

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

    /** How the layout serves a query: "1,146 requests for 1,887 samples (ranges within 375KB merged)". */
    private static String served(Recommendation r, QueryOutcome q) {
        String requests = plural(q.requests(), "request");
        String samples = plural(q.samples(), "sample");
        if (r.layout().equals("l1")) {
            return samples + ", a GET each";
        }
        if (r.mode() == RetrievalMode.PAPER) {
            return r.layout().equals("l3")
                    ? samples + " read as " + requests + " for whole column chunks of the row groups holding them"
                    : samples + ", a ranged GET each";
        }
        String gap = (r.gapBytes().orElse(0) == 0 ? "0 bytes" : Sizes.human(r.gapBytes().orElse(0)))
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
        String what = r.layout().equals("l3")
                ? "footers, metadata columns and page indexes"
                : "the metadata table";
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

    static String count(double value) {
        return Math.abs(value - Math.rint(value)) < 1e-9 ? String.format(Locale.ROOT, "%,d", (long) Math.rint(value))
                : String.format(Locale.ROOT, "%,.1f", value);
    }

    static String megabytes(double bytes) {
        return bytes >= 1e9 ? String.format(Locale.ROOT, "%.2f GB", bytes / 1e9)
                : String.format(Locale.ROOT, "%.2f MB", bytes / 1e6);
    }

    static String ratio(double ratio) {
        return String.format(Locale.ROOT, "%.2fx", ratio);
    }
}
