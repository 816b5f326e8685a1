package io.layoutbench.fusion.codec;

import io.layoutbench.api.internal.ProviderRegistry;

import java.util.Set;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link ErasureCodec}s on the class path, by name. The first use logs the codecs found and the default, with the
 * kernel it runs on ({@code Erasure codecs found: backblaze-rs, fast-rs; default: fast-rs (Backblaze-compatible
 * Reed-Solomon, Vector API, 512-bit ByteVector nibble tables)}).
 *
 * <pre>{@code
 * ErasureCodec rs = ErasureCodecs.defaultCodec();          // fast-rs if the Vector API runs, else backblaze-rs
 * ErasureCodec bb = ErasureCodecs.get("backblaze-rs");
 * ErasureCodecs.get("lrc");   // IllegalArgumentException: Unknown erasure codec name 'lrc';
 *                             // names found: backblaze-rs, fast-rs
 * }</pre>
 */
public final class ErasureCodecs {

    /**
     * The codec used when none is named, chosen once per JVM: {@code fast-rs} ({@link FastReedSolomonCodec}) when its
     * Vector API kernel runs here, else {@code backblaze-rs} ({@link BackblazeReedSolomonCodec}), whose scalar loop is
     * as fast as fast-rs's scalar kernel and better proven. Both write the same parity, so objects written under
     * either default decode with either. The first lookup logs the choice and why.
     */
    public static final String DEFAULT = FastReedSolomonCodec.isVectorKernelAvailable() ? FastReedSolomonCodec.NAME
            : BackblazeReedSolomonCodec.NAME;

    private static final Logger LOG = LoggerFactory.getLogger(ErasureCodecs.class);

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

    /** The codec named {@link #DEFAULT}. */
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

        static {
            String found = String.join(", ", REGISTRY.names());
            if (!REGISTRY.names().contains(DEFAULT)) {
                LOG.warn("Erasure codecs found: {}; the default {} is missing (check META-INF/services)", found,
                        DEFAULT);
            } else if (DEFAULT.equals(FastReedSolomonCodec.NAME)) {
                LOG.info("Erasure codecs found: {}; default: {}", found, REGISTRY.get(DEFAULT));
            } else {
                LOG.info("Erasure codecs found: {}; default: {}, as {} cannot use its vector kernel: {}", found,
                        REGISTRY.get(DEFAULT), FastReedSolomonCodec.NAME, FastReedSolomonCodec.vectorKernelProblem());
            }
        }
    }
}
