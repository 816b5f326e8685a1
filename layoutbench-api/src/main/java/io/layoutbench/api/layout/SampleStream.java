package io.layoutbench.api.layout;

import io.layoutbench.api.dataset.Sample;

import java.util.Iterator;

/**
 * The samples a query returns, pulled one at a time. Reads run ahead asynchronously up to the query's
 * concurrency limit and stop when the consumer falls behind (backpressure), so memory stays bounded whatever the
 * result size. Not thread-safe: one consumer. Close it to cancel reads still in flight.
 *
 * <p>{@link #next()} throws the {@link io.layoutbench.api.LayoutBenchException} a read failed with (a missing
 * object, a checksum mismatch naming the sample, a corrupt shard naming object and offset).
 *
 * <pre>{@code
 * try (SampleStream samples = dataset.query(Query.parse("human_label = 'cello'"), QueryOptions.defaults())) {
 *     while (samples.hasNext()) {
 *         Sample s = samples.next();
 *         train(s.data());
 *     }
 *     System.out.println(samples.stats());
 * }
 * }</pre>
 */
public interface SampleStream extends Iterator<Sample>, AutoCloseable {

    /** What the retrieval has done so far; final once the stream is exhausted or closed. */
    RetrievalStats stats();

    /** Cancels outstanding reads and releases buffers. */
    @Override
    void close();
}
