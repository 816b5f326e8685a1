package io.layoutbench.api.layout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.dataset.MetadataSchema;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class StorageLayoutsTest {

    @Test
    void findsLayoutsByName() {
        var registry = StorageLayouts.registryOf(List.of(new NamedLayout("l1"), new NamedLayout("l2")));

        assertThat(registry.get("l2").name()).isEqualTo("l2");
        assertThat(registry.names()).containsExactly("l1", "l2");
    }

    @Test
    void unknownNameListsTheKnownOnes() {
        var registry = StorageLayouts.registryOf(List.of(new NamedLayout("l1"), new NamedLayout("l3")));

        assertThatThrownBy(() -> registry.get("l9"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Unknown storage layout name 'l9'; names found: l1, l3");
    }

    @Test
    void twoProvidersWithOneNameIsAnError() {
        List<StorageLayout> layouts = List.of(new NamedLayout("l2"), new OtherLayout("l2"));

        assertThatThrownBy(() -> StorageLayouts.registryOf(layouts))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Two storage layout providers have the name 'l2'")
                .hasMessageContaining(NamedLayout.class.getName())
                .hasMessageContaining(OtherLayout.class.getName());
    }

    @Test
    void emptyRegistrySaysWhereToLook() {
        var registry = StorageLayouts.registryOf(List.of());

        assertThatThrownBy(() -> registry.get("l1"))
                .hasMessageContaining("none (check META-INF/services on the class path)");
    }

    private static class NamedLayout implements StorageLayout {
        private final String name;

        NamedLayout(String name) {
            this.name = name;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public String description() {
            return "test layout " + name;
        }

        @Override
        public DatasetWriter create(ObjectBackend backend, String prefix, MetadataSchema schema,
                Map<String, String> options) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Dataset open(ObjectBackend backend, String prefix) {
            throw new UnsupportedOperationException();
        }
    }

    private static final class OtherLayout extends NamedLayout {
        OtherLayout(String name) {
            super(name);
        }
    }
}
