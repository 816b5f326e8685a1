package io.layoutbench.api.backend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.api.testing.TestBytes;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The behaviour every {@link SupportsFirstByteSignal} backend promises: a read signals its first byte at most once, a
 * failed one never, a callback that throws fails nothing, and a cancelled read leaves the backend serving. (That a
 * signal comes at its time is each backend's own test: it needs the backend's clock.) Each such backend's test
 * extends this class and says how to make a fresh, empty one.
 *
 * <pre>{@code
 * class SimulatedNetworkFirstByteContractTest extends FirstByteSignalContractTest {
 *     protected ObjectBackend newBackend() {
 *         return SimulatedNetworkBackend.wrap(new MemoryBackend(), NetworkProfiles.T3_MEDIUM);
 *     }
 * }
 * }</pre>
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
public abstract class FirstByteSignalContractTest {

    private static final String KEY = "first-byte/object.bin";

    /** The backend under test, from {@link #newBackend()}; closed after each test. */
    protected ObjectBackend backend;

    /** A new, empty backend that implements {@link SupportsFirstByteSignal}. Called once before each test. */
    protected abstract ObjectBackend newBackend();

    @BeforeEach
    void openBackend() {
        backend = newBackend();
        assertThat(backend).isInstanceOf(SupportsFirstByteSignal.class);
        backend.put(KEY, TestBytes.of(KEY, 50_000));
    }

    @AfterEach
    void closeBackend() {
        if (backend != null) {
            backend.close();
        }
    }

    private SupportsFirstByteSignal signalling() {
        return (SupportsFirstByteSignal) backend;
    }

    /**
     * At most once, and with the right bytes. Whether it comes at all is not promised: a read that completes first
     * may skip it (it has won its race anyway), which a fast network makes a matter of thread timing.
     */
    @Test
    void rangedAndWholeReadsSignalTheirFirstByteAtMostOnce() {
        for (ByteRange range : List.of(ByteRange.of(1_000, 20_000), ByteRange.of(0, 50_000))) {
            AtomicInteger signals = new AtomicInteger();

            TestBytes.verify(KEY, range.offset(), signalling().readRangeAsync(KEY, range, signals::incrementAndGet)
                    .join());

            assertThat(signals.get()).as("first bytes of %s", range).isLessThanOrEqualTo(1);
        }
        AtomicInteger signals = new AtomicInteger();

        assertThat(signalling().readAllAsync(KEY, signals::incrementAndGet).join().remaining()).isEqualTo(50_000);
        assertThat(signals.get()).isLessThanOrEqualTo(1);
    }

    @Test
    void aReadThatFailsSignalsNothing() {
        AtomicInteger signals = new AtomicInteger();

        CompletableFuture<ByteBuffer> missing = signalling().readRangeAsync("first-byte/missing.bin",
                ByteRange.of(0, 10), signals::incrementAndGet);
        CompletableFuture<ByteBuffer> missingWhole = signalling().readAllAsync("first-byte/missing.bin",
                signals::incrementAndGet);
        CompletableFuture<ByteBuffer> pastTheEnd = signalling().readRangeAsync(KEY, ByteRange.of(60_000, 10),
                signals::incrementAndGet);

        assertThatThrownBy(missing::join).hasCauseInstanceOf(ObjectNotFoundException.class);
        assertThatThrownBy(missingWhole::join).hasCauseInstanceOf(ObjectNotFoundException.class);
        assertThatThrownBy(pastTheEnd::join).hasCauseInstanceOf(RangeNotSatisfiableException.class);
        assertThat(signals.get()).isZero();
    }

    @Test
    void aCallbackThatThrowsFailsNothing() {
        CompletableFuture<ByteBuffer> read = signalling().readRangeAsync(KEY, ByteRange.of(0, 100), () -> {
            throw new IllegalStateException("a broken callback");
        });

        TestBytes.verify(KEY, 0, read.join());
    }

    @Test
    void aCancelledReadIsCancelledUnlessAnsweredAndTheBackendServesTheNext() {
        CompletableFuture<ByteBuffer> read = signalling().readRangeAsync(KEY, ByteRange.of(0, 40_000), () -> { });

        if (read.cancel(false)) {
            assertThat(read).isCancelled();
            assertThatThrownBy(read::join).isInstanceOf(CancellationException.class);
        } else {   // answered already (a store with no network to wait for): nothing left to cancel
            TestBytes.verify(KEY, 0, read.join());
        }
        TestBytes.verify(KEY, 5, signalling().readRangeAsync(KEY, ByteRange.of(5, 100), () -> { }).join());
        TestBytes.verify(KEY, 0, backend.readRange(KEY, ByteRange.of(0, 40_000)));
    }
}
