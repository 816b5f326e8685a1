package io.layoutbench.layouts.retrieval;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.dataset.Blob;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.api.layout.PlannedRequest;
import io.layoutbench.api.metrics.RequestKind;
import io.layoutbench.layouts.common.SampleChecksum;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * A read task that sends its requests side by side and cuts the samples' fields out of their bytes, each field's
 * checksum verified; fields of at least {@code lazyFieldBytes} are not read but returned as {@link LazyBlob}s. Every
 * eager field must lie within one request (the planners make sure it does). L1 reads each field of a sample with
 * its own GET; L2 reads fields of nearby samples with one ranged GET.
 *
 * <pre>{@code
 * ReadTask task = SampleTask.of(List.of(get), 1, () -> List.of(new SampleRead(row, name, fields)),
 *         options.lazyFieldBytes());
 * }</pre>
 */
public final class SampleTask implements ReadTask {

    private final List<PlannedRequest> requests;
    private final int sampleCount;
    private final Supplier<List<SampleRead>> samples;
    private final long lazyFieldBytes;

    private SampleTask(List<PlannedRequest> requests, int sampleCount, Supplier<List<SampleRead>> samples,
            long lazyFieldBytes) {
        this.requests = List.copyOf(requests);
        this.sampleCount = sampleCount;
        this.samples = samples;
        this.lazyFieldBytes = lazyFieldBytes;
    }

    /**
     * A task sending {@code requests} and returning the {@code sampleCount} samples {@code samples} describes when
     * the task runs (so a plan of a million samples holds no object per sample until its task runs); fields of
     * {@code lazyFieldBytes} or more are lazy.
     */
    public static SampleTask of(List<PlannedRequest> requests, int sampleCount, Supplier<List<SampleRead>> samples,
            long lazyFieldBytes) {
        requireNonNull(requests, "requests is null");
        requireNonNull(samples, "samples is null");
        if (sampleCount < 0) {
            throw new IllegalArgumentException("sampleCount must be >= 0, got " + sampleCount);
        }
        return new SampleTask(requests, sampleCount, samples, lazyFieldBytes);
    }

    /** Whether the planners read field {@code field} (else it comes back lazily read). */
    public static boolean eager(FieldRead field, long lazyFieldBytes) {
        return field.size() < lazyFieldBytes;
    }

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
        List<CompletableFuture<ByteBuffer>> reads = new ArrayList<>(requests.size());
        try {
            for (PlannedRequest request : requests) {
                reads.add(request.kind() == RequestKind.GET
                        ? backend.readAllAsync(request.key())
                        : backend.readRangeAsync(request.key(), request.range()));
            }
        } catch (RuntimeException e) {
            reads.forEach(r -> r.cancel(false));
            return CompletableFuture.failedFuture(e);
        }
        return CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new))
                .thenApply(done -> decode(backend, reads.stream().map(CompletableFuture::join).toList()));
    }

    private List<Sample> decode(ObjectBackend backend, List<ByteBuffer> buffers) {
        List<SampleRead> reads = samples.get();
        if (reads.size() != sampleCount) {
            throw new IllegalStateException("A task planned for " + sampleCount + " samples describes " + reads.size()
                    + ": " + requests);
        }
        List<Sample> result = new ArrayList<>(reads.size());
        for (SampleRead sample : reads) {
            Map<String, Blob> fields = new LinkedHashMap<>();
            for (FieldRead field : sample.fields()) {
                fields.put(field.field(), eager(field, lazyFieldBytes)
                        ? Blob.of(cut(sample, field, buffers))
                        : new LazyBlob(backend, field, sample.name()));
            }
            result.add(new Sample(sample.metadata(), fields));
        }
        return result;
    }

    private ByteBuffer cut(SampleRead sample, FieldRead field, List<ByteBuffer> buffers) {
        for (int r = 0; r < requests.size(); r++) {
            PlannedRequest request = requests.get(r);
            long start = field.offset() - request.range().offset();
            if (request.key().equals(field.key()) && start >= 0 && start + field.size() <= request.range().length()) {
                ByteBuffer data = buffers.get(r);
                ByteBuffer bytes = data.duplicate();
                bytes.position(data.position() + (int) start).limit(data.position() + (int) (start + field.size()));
                if (field.checksummed() && SampleChecksum.of(bytes) != (int) field.crc32c()) {
                    // The names are built only for the error, not for every field read.
                    String where = request.kind() == RequestKind.GET ? field.key()
                            : field.key() + " at offset " + field.offset();
                    String name = sample.fields().size() == 1 && field.field().equals(Sample.DATA) ? sample.name()
                            : sample.name() + "' field '" + field.field();
                    SampleChecksum.verify(bytes, (int) field.crc32c(), name, where);
                }
                return bytes.slice();
            }
        }
        throw new IllegalStateException("No request of this task holds field " + field.field() + " of sample '"
                + sample.name() + "' (bytes " + field.range() + " of " + field.key() + "): " + requests);
    }
}
