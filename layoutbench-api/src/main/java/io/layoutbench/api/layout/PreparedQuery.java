package io.layoutbench.api.layout;

import java.util.List;

/**
 * A query planned once ({@link SupportsPreparedQueries#prepare}): its result's samples numbered 0 to n - 1 in
 * dataset order, and reads of any ascending ranges of them. A read of ranges sends what an optimized query of exactly
 * those samples would: ranges of one object are coalesced within a read, never across reads.
 *
 * <p>The result is cut into <em>units</em>: runs of neighbouring samples that the query reads with requests of
 * their own (one object in L1, a coalesced range of a shard in L2, a run of blob pages in L3). Cutting a result at
 * unit boundaries costs no extra bytes or requests; a loader assigns runs of whole units to its ranks.
 * Thread-safe; reads may run side by side.
 *
 * <pre>{@code
 * PreparedQuery prepared = ((SupportsPreparedQueries) dataset).prepare(query, QueryOptions.defaults());
 * for (int unit = 0; unit < prepared.unitCount(); unit++) {
 *     System.out.println(prepared.unitStart(unit) + ": " + prepared.unitBytes(unit) + " bytes");
 * }
 * try (SampleStream mine = prepared.read(List.of(new ResultRange(0, 10), new ResultRange(50, 60)))) { ... }
 * }</pre>
 */
public interface PreparedQuery {

    /**
     * Names this result on any machine: the dataset's layout, prefix and generation (a new ingest is a new
     * generation), the query and the payload fields read. Two prepared queries with the same id number the same
     * samples the same way.
     */
    String resultId();

    /** The options the query was prepared with; every read uses them. */
    QueryOptions options();

    /** Samples in the result. */
    long samples();

    /** Sum of the result's sample sizes (the fields read). */
    long payloadBytes();

    /** Units the result is cut into. */
    int unitCount();

    /** Result position of unit {@code unit}'s first sample; a unit ends where the next starts (or at the end). */
    long unitStart(int unit);

    /** Bytes the read of unit {@code unit} transfers on its own. */
    long unitBytes(int unit);

    /**
     * The requests a read of {@code ranges} sends. {@code plan(List.of(new ResultRange(0, samples())))} is the
     * query's own plan: its metadata requests are those a cold client makes, as in {@link Dataset#plan}.
     *
     * @throws IllegalArgumentException if the ranges are not ascending and apart, or reach past the result
     */
    RetrievalPlan plan(List<ResultRange> ranges);

    /**
     * Reads the samples at the positions of {@code ranges}, in position order (even when the query was prepared with
     * {@link ResultOrder#COMPLETION}), counting its own requests and bytes
     * ({@link SampleStream#stats()}).
     *
     * @throws IllegalArgumentException if the ranges are not ascending and apart, or reach past the result
     */
    SampleStream read(List<ResultRange> ranges);

    /**
     * A view of this query whose reads are planned as parts of one read of {@code scope}: coalesced with the gap
     * that read's budget allows ({@link QueryOptions#maxReadAmplification()} over the scope, not over each part).
     * Reading a scope part by part then sends about the requests of reading it at once, within its byte budget as a
     * whole; a plain {@link #read} of a small part would hold each part to the budget on its own, and split more.
     *
     * <pre>{@code
     * PreparedQuery mine = prepared.asPartsOf(myShare);
     * for (ResultRange block : myShareInShuffledOrder) {
     *     try (SampleStream samples = mine.read(List.of(block))) { ... }
     * }
     * }</pre>
     *
     * @throws IllegalArgumentException if the ranges are not ascending and apart, or reach past the result
     */
    PreparedQuery asPartsOf(List<ResultRange> scope);

    /** The whole result as one range (none when it is empty). */
    default List<ResultRange> all() {
        return samples() == 0 ? List.of() : List.of(new ResultRange(0, samples()));
    }
}
