package io.layoutbench.layouts.retrieval;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.backend.ForwardingObjectBackend;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.SupportsFirstByteSignal;
import io.layoutbench.api.metrics.RequestMetrics;
import io.layoutbench.backend.memory.MemoryBackend;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;

/**
 * A store of one object, "a", whose reads complete only when the test answers them, and whose first bytes arrive
 * only when the test says so.
 */
final class ControlledBackend extends ForwardingObjectBackend implements SupportsFirstByteSignal {
    record Call(String key, ByteRange range, CompletableFuture<ByteBuffer> answer, Runnable onFirstByte) {
    }

    private final MemoryBackend memory = new MemoryBackend();
    private final byte[] object;
    final List<Call> calls = new ArrayList<>();
    /** Whether a read's first byte arrives inside the call that sends it, as a backend may say it. */
    boolean firstByteOnCall;
    /** Thrown by the next read call instead of sending it (then cleared), as a client refusing a request would. */
    RuntimeException refuseNextCall;

    ControlledBackend(int size) {
        object = new byte[size];
        new Random(size).nextBytes(object);
        memory.put("a", object);
    }

    @Override
    protected ObjectBackend delegate() {
        return memory;
    }

    @Override
    public CompletableFuture<ByteBuffer> readRangeAsync(String key, ByteRange range) {
        return readRangeAsync(key, range, () -> { });
    }

    @Override
    public synchronized CompletableFuture<ByteBuffer> readRangeAsync(String key, ByteRange range,
            Runnable onFirstByte) {
        RuntimeException refusal = refuseNextCall;
        if (refusal != null) {
            refuseNextCall = null;
            throw refusal;
        }
        Call call = new Call(key, range, new CompletableFuture<>(), onFirstByte);
        calls.add(call);
        if (firstByteOnCall) {
            onFirstByte.run();
        }
        return call.answer();
    }

    @Override
    public CompletableFuture<ByteBuffer> readAllAsync(String key, Runnable onFirstByte) {
        return readRangeAsync(key, ByteRange.of(0, object.length), onFirstByte);
    }

    /** Call {@code i}'s first byte arrives. */
    void firstByte(int i) {
        calls.get(i).onFirstByte().run();
    }

    @Override
    public ObjectBackend withMetrics(RequestMetrics metrics) {
        return this;
    }

    /** Completes call {@code i} with its bytes. */
    void answer(int i) {
        Call call = calls.get(i);
        call.answer().complete(memory.readRange(call.key(), call.range()));
    }

    void answerAll() {
        for (int i = 0; i < calls.size(); i++) {
            answer(i);
        }
    }

    ByteBuffer slice(int offset, int length) {
        return ByteBuffer.wrap(object, offset, length).slice();
    }
}
