package io.layoutbench.api.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectBackendProvider;
import io.layoutbench.api.backend.ObjectBackends;
import io.layoutbench.api.metrics.RequestMetrics;

import java.net.URI;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class ProviderRegistryTest {

    @Test
    void findsProvidersByNameAndListsNamesSorted() {
        ProviderRegistry<ObjectBackendProvider> registry =
                ObjectBackends.registryOf(List.of(new ZebraProvider(), new AlphaProvider()));

        assertThat(registry.get("zebra")).isInstanceOf(ZebraProvider.class);
        assertThat(registry.names()).containsExactly("alpha", "zebra");
    }

    @Test
    void twoProvidersWithOneNameFailNamingBothClasses() {
        assertThatThrownBy(() -> ObjectBackends.registryOf(
                List.of(new AlphaProvider(), new ZebraProvider(), new OtherAlphaProvider())))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("Two object backend providers have the scheme 'alpha': "
                        + AlphaProvider.class.getName() + " and " + OtherAlphaProvider.class.getName()
                        + "; remove one from the class path");
    }

    @Test
    void anUnknownNameListsTheKnownOnes() {
        ProviderRegistry<ObjectBackendProvider> registry =
                ObjectBackends.registryOf(List.of(new ZebraProvider(), new AlphaProvider()));

        assertThatThrownBy(() -> registry.get("ftp"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Unknown object backend scheme 'ftp'; schemes found: alpha, zebra");
    }

    @Test
    void anEmptyRegistrySaysWhereProvidersComeFrom() {
        ProviderRegistry<ObjectBackendProvider> registry = ObjectBackends.registryOf(List.of());

        assertThatThrownBy(() -> registry.get("mem"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("none (check META-INF/services on the class path)");
    }

    @Test
    void aProviderWithoutANameIsNamedInTheError() {
        assertThatThrownBy(() -> ObjectBackends.registryOf(List.of(new NullSchemeProvider())))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining(NullSchemeProvider.class.getName()).hasMessageContaining("null scheme");
    }

    @Test
    void aUriWithoutASchemeIsRejected() {
        assertThatThrownBy(() -> ObjectBackends.open("just/a/path"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'just/a/path' has no scheme");
        assertThatThrownBy(() -> ObjectBackends.open("bad uri with spaces:"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Invalid backend URI");
    }

    private abstract static class FakeProvider implements ObjectBackendProvider {
        @Override
        public ObjectBackend open(URI uri, Map<String, String> properties, RequestMetrics metrics) {
            throw new UnsupportedOperationException();
        }
    }

    private static final class AlphaProvider extends FakeProvider {
        @Override
        public String scheme() {
            return "alpha";
        }
    }

    private static final class OtherAlphaProvider extends FakeProvider {
        @Override
        public String scheme() {
            return "alpha";
        }
    }

    private static final class ZebraProvider extends FakeProvider {
        @Override
        public String scheme() {
            return "zebra";
        }
    }

    private static final class NullSchemeProvider extends FakeProvider {
        @Override
        public String scheme() {
            return null;
        }
    }
}
