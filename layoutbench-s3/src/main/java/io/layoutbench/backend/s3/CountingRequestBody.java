package io.layoutbench.backend.s3;

import io.layoutbench.api.metrics.RequestKind;
import io.layoutbench.api.metrics.RequestMetrics;

import java.nio.ByteBuffer;
import java.util.Optional;

import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

import software.amazon.awssdk.core.async.AsyncRequestBody;

/**
 * A request body over a byte array, handed to the client in chunks as it asks for them and counted into the metrics
 * as it takes them. The array is not copied; the caller must not change it while the request runs.
 */
final class CountingRequestBody implements AsyncRequestBody {

    private static final int CHUNK_BYTES = 256 * 1024;

    private final byte[] bytes;
    private final RequestKind kind;
    private final RequestMetrics metrics;

    CountingRequestBody(byte[] bytes, RequestKind kind, RequestMetrics metrics) {
        this.bytes = bytes;
        this.kind = kind;
        this.metrics = metrics;
    }

    @Override
    public Optional<Long> contentLength() {
        return Optional.of((long) bytes.length);
    }

    @Override
    public String contentType() {
        return "application/octet-stream";
    }

    @Override
    public void subscribe(Subscriber<? super ByteBuffer> subscriber) {
        subscriber.onSubscribe(new Subscription() {
            private int position;
            private long demand;
            private boolean emitting;
            private boolean done;

            @Override
            public void request(long n) {
                if (n <= 0) {
                    cancel();
                    subscriber.onError(new IllegalArgumentException("Reactive Streams §3.9: request " + n));
                    return;
                }
                synchronized (this) {
                    demand = demand + n < 0 ? Long.MAX_VALUE : demand + n;
                    if (emitting) {
                        return;   // the loop below, further up the stack, picks up the new demand
                    }
                    emitting = true;
                }
                emit();
            }

            private void emit() {
                while (true) {
                    ByteBuffer chunk;
                    synchronized (this) {
                        if (done || demand == 0) {
                            emitting = false;
                            return;
                        }
                        if (position == bytes.length) {
                            done = true;
                            emitting = false;
                            chunk = null;
                        } else {
                            int length = Math.min(CHUNK_BYTES, bytes.length - position);
                            chunk = ByteBuffer.wrap(bytes, position, length).slice();
                            position += length;
                            demand--;
                        }
                    }
                    if (chunk == null) {
                        subscriber.onComplete();
                        return;
                    }
                    metrics.onBytesSent(kind, chunk.remaining());
                    subscriber.onNext(chunk);
                }
            }

            @Override
            public synchronized void cancel() {
                done = true;
            }
        });
    }
}
