package io.layoutbench.fusion.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.backend.FirstByteSignalContractTest;
import io.layoutbench.api.backend.ForwardingObjectBackend;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.SupportsFirstByteSignal;
import io.layoutbench.api.metrics.RequestMetrics;
import io.layoutbench.api.network.HostBandwidth;
import io.layoutbench.api.network.NetworkProfile;
import io.layoutbench.backend.memory.MemoryBackend;
import io.layoutbench.backend.simulated.SimulatedNetworkBackend;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * A prefix view signals first bytes where the backend under it does, so that a FAC store over such nodes can race its
 * reads to them; and a read cancelled through the view is cancelled below it, so a losing copy stops.
 */
class PrefixedFirstByteContractTest extends FirstByteSignalContractTest {

    /** A network fast enough for the suite to take a second, with latency jitter. */
    private static final NetworkProfile FAST = new NetworkProfile("fast", Duration.ofNanos(100_000), 0.5, 2e9,
            HostBandwidth.sustained(8e9), Duration.ofNanos(50_000), 16, 0);

    @Override
    protected ObjectBackend newBackend() {
        return PrefixedBackend.owning(SimulatedNetworkBackend.wrap(new MemoryBackend(), FAST), "nodes/node-00");
    }

    @Test
    void aViewOfABackendThatDoesNotSignalDoesNotClaimTo() {
        try (MemoryBackend memory = new MemoryBackend()) {
            assertThat(PrefixedBackend.of(memory, "p")).isNotInstanceOf(SupportsFirstByteSignal.class);
            assertThat(PrefixedBackend.of(memory, "p").withMetrics(RequestMetrics.NONE))
                    .isNotInstanceOf(SupportsFirstByteSignal.class);
        }
        assertThat(backend.withMetrics(RequestMetrics.NONE)).isInstanceOf(SupportsFirstByteSignal.class);
    }

    @Test
    void aReadCancelledThroughTheViewIsCancelledBelowIt() {
        Pending pending = new Pending();
        PrefixedBackend view = PrefixedBackend.of(pending, "p");

        CompletableFuture<ByteBuffer> plain = view.readRangeAsync("k", ByteRange.of(0, 10));
        plain.cancel(false);
        assertThat(pending.last.isCancelled()).isTrue();

        CompletableFuture<ByteBuffer> signalled = ((SupportsFirstByteSignal) view)
                .readRangeAsync("k", ByteRange.of(0, 10), () -> { });
        signalled.cancel(false);
        assertThat(pending.last.isCancelled()).isTrue();
    }

    /** A signalling backend whose reads never answer; it keeps the last one's future. */
    private static final class Pending extends ForwardingObjectBackend implements SupportsFirstByteSignal {
        private final MemoryBackend memory = new MemoryBackend();
        CompletableFuture<ByteBuffer> last;

        @Override
        protected ObjectBackend delegate() {
            return memory;
        }

        @Override
        public CompletableFuture<ByteBuffer> readRangeAsync(String key, ByteRange range) {
            last = new CompletableFuture<>();
            return last;
        }

        @Override
        public CompletableFuture<ByteBuffer> readRangeAsync(String key, ByteRange range, Runnable onFirstByte) {
            return readRangeAsync(key, range);
        }

        @Override
        public CompletableFuture<ByteBuffer> readAllAsync(String key, Runnable onFirstByte) {
            return readAllAsync(key);
        }

        @Override
        public ObjectBackend withMetrics(RequestMetrics metrics) {
            return this;
        }
    }
}
