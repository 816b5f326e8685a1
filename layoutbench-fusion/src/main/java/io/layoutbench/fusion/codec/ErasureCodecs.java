package io.layoutbench.fusion.codec;

import io.layoutbench.api.internal.ProviderRegistry;

import java.util.Set;

/**
 * The {@link ErasureCodec}s on the class path, by name.
 *
 * <pre>{@code
 * ErasureCodec rs = ErasureCodecs.get("backblaze-rs");
 * ErasureCodecs.get("lrc");   // IllegalArgumentException: Unknown erasure codec name 'lrc'; names found: backblaze-rs
 * }</pre>
 */
public final class ErasureCodecs {

    /** The codec used when none is named: Backblaze JavaReedSolomon. */
    public static final String DEFAULT = BackblazeReedSolomonCodec.NAME;

    private ErasureCodecs() {
    }

    /**
     * The codec named {@code name}.
     *
     * @throws IllegalArgumentException listing the known names if there is none
     */
    public static ErasureCodec get(String name) {
        return Holder.REGISTRY.get(name);
    }

    /** The codec named {@value #DEFAULT}. */
    public static ErasureCodec defaultCodec() {
        return get(DEFAULT);
    }

    /** The names of the codecs on the class path, sorted. */
    public static Set<String> names() {
        return Holder.REGISTRY.names();
    }

    /** A registry over explicit codecs, for tests and for callers that do their own discovery. */
    public static ProviderRegistry<ErasureCodec> registryOf(Iterable<ErasureCodec> codecs) {
        return new ProviderRegistry<>("erasure codec", "name", codecs, ErasureCodec::name);
    }

    private static final class Holder {
        static final ProviderRegistry<ErasureCodec> REGISTRY =
                registryOf(ProviderRegistry.discover(ErasureCodec.class));
    }
}
