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
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The behaviour every {@link SupportsFirstByteSignal} backend promises: a successful read signals its first byte once,
 * before it completes, a failed one never, a callback that throws fails nothing, and a cancelled read leaves the
 * backend serving. Each such backend's test extends this class and says how to make a fresh, empty one.
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

    @Test
    void rangedAndWholeReadsSignalTheirFirstByteOnceBeforeTheyComplete() {
        for (ByteRange range : List.of(ByteRange.of(1_000, 20_000), ByteRange.of(0, 50_000))) {
            Signals signals = new Signals();
            CompletableFuture<ByteBuffer> read = signals.watch(signalling().readRangeAsync(KEY, range,
                    signals::onFirstByte));

            TestBytes.verify(KEY, range.offset(), read.join());
            assertThat(signals.count.get()).as("first bytes of %s", range).isEqualTo(1);
            assertThat(signals.doneAtFirstByte.get()).as("%s done at its first byte", range).isFalse();
        }
        Signals signals = new Signals();
        CompletableFuture<ByteBuffer> whole = signals.watch(signalling().readAllAsync(KEY, signals::onFirstByte));

        assertThat(whole.join().remaining()).isEqualTo(50_000);
        assertThat(signals.count.get()).isEqualTo(1);
        assertThat(signals.doneAtFirstByte.get()).isFalse();
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

    /** Counts a read's first-byte signals and whether the read was done at the first. */
    private static final class Signals {
        final AtomicInteger count = new AtomicInteger();
        final AtomicReference<Boolean> doneAtFirstByte = new AtomicReference<>();
        private final AtomicReference<CompletableFuture<ByteBuffer>> read = new AtomicReference<>();

        void onFirstByte() {
            if (count.incrementAndGet() == 1) {
                CompletableFuture<ByteBuffer> known = read.get();
                // Not known yet: the signal came inside the call that sent the read, which had not returned.
                doneAtFirstByte.set(known != null && known.isDone());
            }
        }

        CompletableFuture<ByteBuffer> watch(CompletableFuture<ByteBuffer> sent) {
            read.set(sent);
            return sent;
        }
    }
}
