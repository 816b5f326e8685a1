package io.layoutbench.api.layout;

import io.layoutbench.api.internal.ProviderRegistry;

import java.util.Set;

/**
 * The {@link StorageLayout}s on the class path, by name.
 *
 * <pre>{@code
 * StorageLayout l3 = StorageLayouts.get("l3");
 * StorageLayouts.get("l9");   // IllegalArgumentException: Unknown storage layout name 'l9'; names found: l1, l2, l3
 * }</pre>
 */
public final class StorageLayouts {

    private StorageLayouts() {
    }

    /**
     * The layout named {@code name}.
     *
     * @throws IllegalArgumentException listing the known names if there is none
     */
    public static StorageLayout get(String name) {
        return Holder.REGISTRY.get(name);
    }

    /** The names of the layouts on the class path, sorted. */
    public static Set<String> names() {
        return Holder.REGISTRY.names();
    }

    /** A registry over explicit layouts, for tests and for callers that do their own discovery. */
    public static ProviderRegistry<StorageLayout> registryOf(Iterable<StorageLayout> layouts) {
        return new ProviderRegistry<>("storage layout", "name", layouts, StorageLayout::name);
    }

    private static final class Holder {
        static final ProviderRegistry<StorageLayout> REGISTRY =
                registryOf(ProviderRegistry.discover(StorageLayout.class));
    }
}
