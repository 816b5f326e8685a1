package io.layoutbench.api.backend;

import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;

/**
 * An {@link ObjectBackend} that can say when a read's response starts to arrive, before its body has: what a client
 * that races copies of a read needs to abandon the losers at the winner's first byte, before they move any bytes,
 * rather than when the winner's last byte is in. Optimized retrieval races only a backend that has it; it hedges reads
 * from any other late, one duplicate at a time.
 *
 * <p>{@code onFirstByte} runs at most once per read, when a successful response starts, normally before the returned
 * future completes (a read that completes first may skip it: it has won anyway), on whatever thread the backend hears
 * the response on, possibly inside the read call itself. It must be short, must not block, and may cancel other reads;
 * the backend holds none of its locks while it runs, and a callback that throws does not fail the read. It does not
 * run for a read that fails, or that is cancelled first. {@code FirstByteSignalContractTest} (the api's test jar)
 * checks these promises of an implementation.
 *
 * <p>The simulated network implements it. The S3 backend does not: the AWS SDK's CRT client hands a response's
 * headers over only with its first body part, once that part is all in, so it cannot tell a response's start from
 * its end for a read of one part.
 *
 * <pre>{@code
 * if (backend instanceof SupportsFirstByteSignal signalling) {
 *     CompletableFuture<ByteBuffer> read = signalling.readRangeAsync("shard-0.tar", ByteRange.of(0, 1 << 20),
 *             () -> otherCopy.cancel(false));
 * }
 * }</pre>
 */
public interface SupportsFirstByteSignal {

    /** {@link ObjectBackend#readRangeAsync}, running {@code onFirstByte} when the response's first byte arrives. */
    CompletableFuture<ByteBuffer> readRangeAsync(String key, ByteRange range, Runnable onFirstByte);

    /** {@link ObjectBackend#readAllAsync}, running {@code onFirstByte} when the response's first byte arrives. */
    CompletableFuture<ByteBuffer> readAllAsync(String key, Runnable onFirstByte);
}
