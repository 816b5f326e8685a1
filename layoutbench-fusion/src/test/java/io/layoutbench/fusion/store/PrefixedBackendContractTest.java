package io.layoutbench.fusion.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectBackendContractTest;
import io.layoutbench.backend.memory.MemoryBackend;

import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/** The object-store contract for a prefix view, with objects outside the prefix that it must not see. */
class PrefixedBackendContractTest extends ObjectBackendContractTest {

    private MemoryBackend shared;

    @Override
    protected ObjectBackend newBackend() {
        shared = new MemoryBackend();
        shared.put("outside", new byte[3]);
        shared.put("views/a-sibling/x", new byte[3]);
        return new ClosingView(shared, PrefixedBackend.of(shared, "views/a"));
    }

    @Test
    void keysLandUnderThePrefix() {
        backend.put("k/1", new byte[5]);

        assertThat(shared.size("views/a/k/1")).isEqualTo(5);
        try (Stream<io.layoutbench.api.backend.ObjectInfo> listed = backend.list("")) {
            assertThat(listed.map(io.layoutbench.api.backend.ObjectInfo::key)).containsExactly("k/1");
        }
    }

    @Test
    void anOwningViewClosesItsBackendAndAPlainViewDoesNot() {
        MemoryBackend kept = new MemoryBackend();
        MemoryBackend owned = new MemoryBackend();
        kept.put("x", new byte[1]);
        owned.put("x", new byte[1]);

        PrefixedBackend.of(kept, "p").close();
        PrefixedBackend.owning(owned, "p").close();

        assertThat(kept.size("x")).isEqualTo(1);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> owned.size("x")).hasMessageContaining("closed");
        kept.close();
    }

    /** The view, closing the memory store under it when the test closes the backend. */
    private static final class ClosingView implements ObjectBackend {
        private final MemoryBackend store;
        private final PrefixedBackend view;

        ClosingView(MemoryBackend store, PrefixedBackend view) {
            this.store = store;
            this.view = view;
        }

        @Override
        public java.net.URI uri() {
            return view.uri();
        }

        @Override
        public java.util.concurrent.CompletableFuture<java.nio.ByteBuffer> readRangeAsync(String key,
                io.layoutbench.api.backend.ByteRange range) {
            return view.readRangeAsync(key, range);
        }

        @Override
        public java.util.concurrent.CompletableFuture<java.nio.ByteBuffer> readAllAsync(String key) {
            return view.readAllAsync(key);
        }

        @Override
        public long size(String key) {
            return view.size(key);
        }

        @Override
        public void put(String key, java.io.InputStream data, long length) {
            view.put(key, data, length);
        }

        @Override
        public Stream<io.layoutbench.api.backend.ObjectInfo> list(String prefix) {
            return view.list(prefix);
        }

        @Override
        public void delete(String key) {
            view.delete(key);
        }

        @Override
        public ObjectBackend withMetrics(io.layoutbench.api.metrics.RequestMetrics metrics) {
            return view.withMetrics(metrics);
        }

        @Override
        public void close() {
            view.close();
            store.close();
        }
    }
}
