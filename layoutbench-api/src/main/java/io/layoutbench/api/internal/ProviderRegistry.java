package io.layoutbench.api.internal;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.ConfigurationException;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Providers of one SPI by name, built once from {@link ServiceLoader}. Two providers with one name fail loudly,
 * naming both classes; an unknown name fails listing the known ones. Not part of the stable API.
 *
 * <pre>{@code
 * ProviderRegistry<StorageLayout> layouts = new ProviderRegistry<>("storage layout", "name",
 *         ProviderRegistry.discover(StorageLayout.class), StorageLayout::name);
 * StorageLayout l2 = layouts.get("l2");
 * }</pre>
 *
 * @param <T> the provider type
 */
public final class ProviderRegistry<T> {

    private final String kind;
    private final String keyName;
    private final Map<String, T> byName;

    /**
     * @param kind      what the providers are, for messages ("storage layout")
     * @param keyName   what the key is called, for messages ("name", "scheme")
     * @param providers the providers
     * @param nameOf    a provider's key
     * @throws IllegalStateException if two providers share a key
     */
    public ProviderRegistry(String kind, String keyName, Iterable<? extends T> providers,
            Function<? super T, String> nameOf) {
        this.kind = requireNonNull(kind, "kind is null");
        this.keyName = requireNonNull(keyName, "keyName is null");
        Map<String, T> found = new TreeMap<>();
        for (T provider : providers) {
            String name = requireNonNull(nameOf.apply(provider),
                    () -> "The " + kind + " provider " + provider.getClass().getName() + " has a null " + keyName);
            T previous = found.putIfAbsent(name, provider);
            if (previous != null) {
                throw new IllegalStateException("Two " + kind + " providers have the " + keyName + " '" + name
                        + "': " + previous.getClass().getName() + " and " + provider.getClass().getName()
                        + "; remove one from the class path");
            }
        }
        this.byName = Collections.unmodifiableMap(found);
    }

    /** All providers of {@code type} that {@link ServiceLoader} finds from this library's class loader. */
    public static <T> List<T> discover(Class<T> type) {
        List<T> providers = new ArrayList<>();
        ServiceLoader.load(type, type.getClassLoader()).forEach(providers::add);
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        if (context != null && context != type.getClassLoader()) {
            for (T provider : ServiceLoader.load(type, context)) {
                boolean known = providers.stream().anyMatch(p -> p.getClass() == provider.getClass());
                if (!known) {
                    providers.add(provider);
                }
            }
        }
        return providers;
    }

    /**
     * The provider for {@code name}.
     *
     * @throws IllegalArgumentException listing the known names if there is none
     */
    public T get(String name) {
        T provider = byName.get(name);
        if (provider == null) {
            throw new ConfigurationException("Unknown " + kind + " " + keyName + " '" + name + "'; "
                    + keyName + "s found: " + (byName.isEmpty() ? "none (check META-INF/services on the class path)"
                    : String.join(", ", byName.keySet())));
        }
        return provider;
    }

    /** The known names, sorted. */
    public Set<String> names() {
        return byName.keySet();
    }
}
