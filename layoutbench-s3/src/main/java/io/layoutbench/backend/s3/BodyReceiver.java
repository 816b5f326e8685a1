package io.layoutbench.backend.s3;

import io.layoutbench.api.metrics.RequestKind;
import io.layoutbench.api.metrics.RequestMetrics;

import java.io.EOFException;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

import software.amazon.awssdk.core.async.AsyncResponseTransformer;
import software.amazon.awssdk.core.async.SdkPublisher;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;

/**
 * Receives one GET response body straight into a buffer chosen when the headers arrive: each chunk the client
 * delivers is put into it once, and counted into the metrics there, where it is consumed. The first byte is counted
 * when the SDK hands the response over: its CRT client does that with the first body part, once that part is all in
 * ({@code S3CrtResponseHandlerAdapter} calls {@code onHeaders} at the first body delivery), so for a read of one
 * part the time counted is to its last byte, not its first.
 *
 * <p>A body longer or shorter than its buffer fails the attempt (a short one with an {@link EOFException}: the
 * connection broke). Once {@link #abandon() abandoned} (the attempt timed out, or the read was cancelled) it writes
 * nothing more, so a retry may reuse the buffer.
 */
final class BodyReceiver implements AsyncResponseTransformer<GetObjectResponse, GetObjectResponse> {

    private final RequestKind kind;
    private final RequestMetrics metrics;
    private final long startNanos;
    private final Function<GetObjectResponse, ByteBuffer> sinkFor;
    private volatile CompletableFuture<GetObjectResponse> result;
    private volatile GetObjectResponse response;
    private volatile ByteBuffer sink;
    private volatile RuntimeException sinkFailure;
    private volatile Subscription subscription;
    private boolean abandoned;

    /**
     * @param sinkFor the buffer the body goes into, of exactly the body's length, for the response headers; may
     *                throw to fail the attempt (a {@code RangeNotSatisfiableException}, say)
     */
    BodyReceiver(RequestKind kind, RequestMetrics metrics, long startNanos,
            Function<GetObjectResponse, ByteBuffer> sinkFor) {
        this.kind = kind;
        this.metrics = metrics;
        this.startNanos = startNanos;
        this.sinkFor = sinkFor;
    }

    @Override
    public CompletableFuture<GetObjectResponse> prepare() {
        result = new CompletableFuture<>();
        return result;
    }

    @Override
    public void onResponse(GetObjectResponse response) {
        metrics.onFirstByte(kind, System.nanoTime() - startNanos);
        this.response = response;
        try {
            sink = sinkFor.apply(response);
        } catch (RuntimeException e) {
            sinkFailure = e;
        }
    }

    @Override
    public void onStream(SdkPublisher<ByteBuffer> publisher) {
        publisher.subscribe(new Subscriber<ByteBuffer>() {
            @Override
            public void onSubscribe(Subscription s) {
                subscription = s;
                if (sinkFailure != null) {
                    s.cancel();
                    result.completeExceptionally(sinkFailure);
                    return;
                }
                s.request(Long.MAX_VALUE);
            }

            @Override
            public void onNext(ByteBuffer chunk) {
                int n = chunk.remaining();
                synchronized (BodyReceiver.this) {
                    if (abandoned || result.isDone()) {
                        return;
                    }
                    if (n > sink.remaining()) {
                        subscription.cancel();
                        result.completeExceptionally(new IllegalStateException("The response body is longer than"
                                + " the " + sink.capacity() + " bytes its headers announced"));
                        return;
                    }
                    sink.put(chunk);
                }
                metrics.onBytesReceived(kind, n);
            }

            @Override
            public void onError(Throwable t) {
                result.completeExceptionally(t);
            }

            @Override
            public void onComplete() {
                synchronized (BodyReceiver.this) {
                    if (sink.hasRemaining()) {
                        result.completeExceptionally(new EOFException("the response body ended after "
                                + sink.position() + " of " + sink.capacity() + " bytes"));
                        return;
                    }
                }
                result.complete(response);
            }
        });
    }

    @Override
    public void exceptionOccurred(Throwable error) {
        CompletableFuture<GetObjectResponse> future = result;
        if (future != null) {
            future.completeExceptionally(error);
        }
    }

    /** Stops writing into the buffer: once this returns, nothing more is put into it. */
    synchronized void abandon() {
        abandoned = true;
        Subscription s = subscription;
        if (s != null) {
            s.cancel();
        }
    }
}
