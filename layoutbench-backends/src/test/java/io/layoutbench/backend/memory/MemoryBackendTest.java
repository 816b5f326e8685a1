package io.layoutbench.backend.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectBackendContractTest;
import io.layoutbench.api.backend.ObjectBackends;
import io.layoutbench.api.backend.ObjectNotFoundException;
import io.layoutbench.api.metrics.MetricsSnapshot;
import io.layoutbench.api.metrics.QueryMetrics;
import io.layoutbench.api.metrics.RequestKind;
import io.layoutbench.api.metrics.RequestMetrics;
import io.layoutbench.api.testing.TestBytes;

import java.net.URI;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

class MemoryBackendTest extends ObjectBackendContractTest {

    @Override
    protected ObjectBackend newBackend() {
        return new MemoryBackend();
    }

    @Test
    void eachInstanceHasItsOwnUriAndObjects() {
        try (MemoryBackend other = new MemoryBackend()) {
            backend.put("k", new byte[] {1});

            assertThat(backend.uri().getScheme()).isEqualTo("mem");
            assertThat(backend.uri()).isNotEqualTo(other.uri());
            assertThat(other.exists("k")).isFalse();
        }
    }

    @Test
    void putCopiesTheCallersArray() {
        byte[] data = {1, 2, 3};
        backend.put("copy", data);
        data[0] = 9;

        assertThat(backend.readAll("copy").get(0)).isEqualTo((byte) 1);
    }

    @Test
    void countsEachKindOfRequest() {
        QueryMetrics metrics = new QueryMetrics();
        ObjectBackend metered = backend.withMetrics(metrics);

        metered.put("a", TestBytes.of("a", 100));
        metered.readRange("a", ByteRange.of(10, 20));
        metered.readAll("a");
        metered.size("a");
        metered.delete("a");
        assertThatThrownBy(() -> metered.readAll("a")).isInstanceOf(ObjectNotFoundException.class);

        MetricsSnapshot s = metrics.snapshot();
        assertThat(s.requests()).containsExactlyInAnyOrderEntriesOf(Map.of(RequestKind.PUT, 1L,
                RequestKind.RANGE_GET, 1L, RequestKind.GET, 2L, RequestKind.HEAD, 1L, RequestKind.DELETE, 1L));
        assertThat(s.failures()).containsExactlyEntriesOf(Map.of(RequestKind.GET, 1L));
        assertThat(s.bytesSent()).isEqualTo(100);
        assertThat(s.bytesReceived()).isEqualTo(20 + 100);
    }

    @Test
    void listsInPagesOfAThousand() {
        for (int i = 0; i < 2500; i++) {
            backend.put("p/" + i, new byte[0]);
        }
        assertThat(listRequests("p/")).isEqualTo(3);
        assertThat(listRequests("nothing/")).isEqualTo(1);

        for (int i = 2000; i < 2500; i++) {   // exactly 2,000 keys left: two full pages and no empty third one
            backend.delete("p/" + i);
        }
        assertThat(listRequests("p/")).isEqualTo(2);
    }

    @Test
    void aClosedBackendAndItsViewsRefuseWork() {
        ObjectBackend view = backend.withMetrics(RequestMetrics.NONE);
        backend.put("x", new byte[3]);

        view.close();
        assertThat(backend.size("x")).isEqualTo(3);
        backend.close();

        assertThatThrownBy(() -> backend.size("x")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed").hasMessageContaining(backend.uri().toString());
        assertThatThrownBy(() -> view.readRange("x", ByteRange.of(0, 1))).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> view.put("y", new byte[1])).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void providerOpensAFreshStorePerOpenAndTakesNoProperties() {
        MemoryBackendProvider provider = new MemoryBackendProvider();
        try (ObjectBackend first = provider.open(URI.create("mem:shared"), Map.of(), RequestMetrics.NONE);
             ObjectBackend second = ObjectBackends.open("mem:shared")) {
            first.put("k", new byte[1]);

            assertThat(first.uri()).isEqualTo(URI.create("mem:shared"));
            assertThat(second).isInstanceOf(MemoryBackend.class);
            assertThat(second.exists("k")).as("every open is a new, empty store").isFalse();
        }
        assertThatThrownBy(() -> provider.open(URI.create("mem:x"), Map.of("size", "1"), RequestMetrics.NONE))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("size");
        assertThatThrownBy(() -> new MemoryBackend(URI.create("file:/x"), RequestMetrics.NONE))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("mem");
    }

    private long listRequests(String prefix) {
        QueryMetrics metrics = new QueryMetrics();
        try (Stream<?> listed = backend.withMetrics(metrics).list(prefix)) {
            listed.forEach(info -> { });
        }
        return metrics.snapshot().requests(RequestKind.LIST);
    }
}
