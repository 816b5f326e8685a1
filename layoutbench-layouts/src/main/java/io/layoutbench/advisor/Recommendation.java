package io.layoutbench.advisor;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.layout.RetrievalMode;

import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * One layout setting with its predicted outcome over the workload: the weighted sums of time, bytes, requests and
 * dollars, the objective's score, each query's prediction, the metadata a fresh client loads first, and why it
 * ranks where it does.
 *
 * @param rank          1 for the best
 * @param layout        {@code l1}, {@code l2}, {@code l3}
 * @param mode          the retrieval mode
 * @param options       the layout's write options ({@code shard-size=64MB})
 * @param settings      the settings for people ({@code shard 64MB, gap 375KB (time break-even)})
 * @param gapBytes      the coalescing gap in optimized mode of a layout that merges ranges
 * @param maxReadAmplification the read budget merging kept within ({@code Infinity}: none)
 * @param reference     whether this is a reference setting the caller asked for (the CLI's: the paper's)
 * @param seconds       weighted sum of predicted T
 * @param bytes         weighted sum of predicted D
 * @param requests      weighted sum of requests
 * @param dollars       weighted sum of predicted C
 * @param score         weighted sum of the objective's scores: what the ranking sorts by
 * @param metadataLoad  the metadata reads of a fresh client over the whole workload, each read once (in the
 *                      scores only when the workload is priced cold, and then once per query)
 * @param queries       each query's prediction
 * @param reasons       why, in a few sentences (filled for the entries the report explains)
 */
public record Recommendation(int rank, String layout, RetrievalMode mode, Map<String, String> options,
        String settings, OptionalLong gapBytes, double maxReadAmplification, boolean reference, double seconds,
        double bytes, double requests, double dollars, double score, QueryOutcome metadataLoad,
        List<QueryOutcome> queries, List<String> reasons) {

    public Recommendation {
        requireNonNull(layout, "layout is null");
        requireNonNull(mode, "mode is null");
        options = Map.copyOf(requireNonNull(options, "options is null"));
        requireNonNull(settings, "settings is null");
        requireNonNull(gapBytes, "gapBytes is null");
        requireNonNull(metadataLoad, "metadataLoad is null");
        queries = List.copyOf(requireNonNull(queries, "queries is null"));
        reasons = List.copyOf(requireNonNull(reasons, "reasons is null"));
    }

    /** Layout and settings: {@code l2 shard 64MB, gap 375KB (time break-even)}. */
    public String title() {
        return layout + " " + settings;
    }

    Recommendation withRank(int newRank) {
        return new Recommendation(newRank, layout, mode, options, settings, gapBytes, maxReadAmplification, reference,
                seconds, bytes, requests, dollars, score, metadataLoad, queries, reasons);
    }

    Recommendation withReasons(List<String> newReasons) {
        return new Recommendation(rank, layout, mode, options, settings, gapBytes, maxReadAmplification, reference,
                seconds, bytes, requests, dollars, score, metadataLoad, queries, newReasons);
    }

    /** The query with id {@code id}. */
    public QueryOutcome query(String id) {
        return queries.stream().filter(q -> q.id().equals(id)).findFirst().orElseThrow();
    }
}
