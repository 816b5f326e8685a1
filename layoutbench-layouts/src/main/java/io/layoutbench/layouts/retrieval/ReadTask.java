package io.layoutbench.layouts.retrieval;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.api.layout.PlannedRequest;
import io.layoutbench.api.metrics.RequestKind;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * One unit of retrieval: the requests it sends and how it turns their bytes into samples. A whole object (L1), a
 * (merged) range of a shard holding one or more samples (L2), or the pages of one row group (L3).
 *
 * <pre>{@code
 * ReadTask task = ReadTask.single(new PlannedRequest(RequestKind.GET, "l1/a.jpg", ByteRange.of(0, 1234)), 1,
 *         bytes -> List.of(new Sample(row, bytes)));
 * }</pre>
 */
public interface ReadTask {

    /** The requests this task sends (for planning and for the memory budget). */
    List<PlannedRequest> requests();

    /** How many samples {@link #run} returns: known when the task is planned, before it runs. */
    int sampleCount();

    /**
     * Sends the requests through {@code backend} and completes with the samples, in dataset order, their checksums
     * verified. Fails with a {@link io.layoutbench.api.LayoutBenchException} naming the object, offset or sample at
     * fault.
     */
    CompletableFuture<List<Sample>> run(ObjectBackend backend);

    /** Bytes this task reads. */
    default long bytes() {
        return requests().stream().mapToLong(PlannedRequest::bytes).sum();
    }

    /**
     * A task of one request: a whole-object GET or a ranged GET, decoded by {@code decoder} into
     * {@code sampleCount} samples (it may throw the library's exceptions; they fail the task).
     */
    static ReadTask single(PlannedRequest request, int sampleCount, Function<ByteBuffer, List<Sample>> decoder) {
        requireNonNull(request, "request is null");
        requireNonNull(decoder, "decoder is null");
        List<PlannedRequest> requests = List.of(request);
        return new ReadTask() {
            @Override
            public List<PlannedRequest> requests() {
                return requests;
            }

            @Override
            public int sampleCount() {
                return sampleCount;
            }

            @Override
            public CompletableFuture<List<Sample>> run(ObjectBackend backend) {
                CompletableFuture<ByteBuffer> read;
                try {
                    read = request.kind() == RequestKind.GET
                            ? backend.readAllAsync(request.key())
                            : backend.readRangeAsync(request.key(), request.range());
                } catch (RuntimeException e) {
                    return CompletableFuture.failedFuture(e);
                }
                return read.thenApply(decoder);
            }
        };
    }
}
