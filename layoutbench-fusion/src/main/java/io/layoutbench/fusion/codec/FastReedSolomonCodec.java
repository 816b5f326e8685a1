package io.layoutbench.fusion.codec;

import static java.util.Objects.requireNonNull;

import java.util.Arrays;
import java.util.BitSet;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Reed-Solomon over GF(2^8) whose parity is byte-identical to Backblaze JavaReedSolomon's
 * ({@link BackblazeReedSolomonCodec}): the same field (polynomial {@code 0x11D}, generator 2) and the same encoding
 * matrix (a Vandermonde matrix times the inverse of its top square). Either codec decodes what the other encoded.
 * It is faster: on the Java Vector API (a JVM started with {@code --add-modules jdk.incubator.vector}) it multiplies
 * a vector of bytes at a time with nibble-table shuffles; without it, it falls back to a portable scalar kernel
 * a little slower than Backblaze's (which is then the default instead). Decoding inverts the surviving rows as Backblaze does and rebuilds every missing
 * block, data or parity, in one pass of the same kernel. When its vector kernel runs it is the
 * {@link ErasureCodecs#DEFAULT default} codec.
 *
 * <pre>{@code
 * ErasureCoder rs = ErasureCodecs.get("fast-rs").coder(CodeParameters.rs(9, 6));
 * rs.encode(shards, 0, blockSize);
 * FastReedSolomonCodec scalar = FastReedSolomonCodec.withKernel(FastReedSolomonCodec.Kernel.SCALAR);
 * }</pre>
 *
 * <p>The kernel is chosen when the codec is made: the vector one if it runs in this JVM (logged once, with the
 * reason when it does not), unless the system property {@value #KERNEL_PROPERTY} is {@code scalar}. Coders are cached
 * per shape; thread-safe.
 */
public final class FastReedSolomonCodec implements ErasureCodec {

    /** This codec's name. */
    public static final String NAME = "fast-rs";

    /**
     * System property choosing the kernel of codecs made with the no-arg constructor (as {@link ErasureCodecs}
     * does): {@code auto} (the default: vector if it runs, else scalar) or {@code scalar}.
     */
    public static final String KERNEL_PROPERTY = "layoutbench.codec.fast-rs.kernel";

    /** Decoding plans kept per coder; a stripe rarely sees more than a few erasure patterns at once. */
    private static final int MAX_CACHED_PLANS = 256;

    /** The loop that multiplies blocks by coefficients. */
    public enum Kernel {
        /** Java Vector API ({@code jdk.incubator.vector}), nibble-table byte shuffles. */
        VECTOR,
        /** Portable Java, 256-entry product tables. */
        SCALAR
    }

    private final Kernel kernel;
    private final GfKernel gfKernel;
    private final Map<CodeParameters, ErasureCoder> coders = new ConcurrentHashMap<>();

    /**
     * The fastest kernel that runs here, or the scalar one if {@value #KERNEL_PROPERTY} says {@code scalar}.
     *
     * @throws IllegalArgumentException if the property has another value
     */
    public FastReedSolomonCodec() {
        this(kernelFromProperty());
    }

    private FastReedSolomonCodec(GfKernel gfKernel) {
        this.gfKernel = gfKernel;
        this.kernel = gfKernel == ScalarGfKernel.INSTANCE ? Kernel.SCALAR : Kernel.VECTOR;
    }

    /**
     * This codec on the given kernel, for benchmarks and tests.
     *
     * @throws IllegalStateException for {@link Kernel#VECTOR} when it cannot run in this JVM, saying why
     */
    public static FastReedSolomonCodec withKernel(Kernel kernel) {
        requireNonNull(kernel, "kernel is null");
        if (kernel == Kernel.SCALAR) {
            return new FastReedSolomonCodec(ScalarGfKernel.INSTANCE);
        }
        return new FastReedSolomonCodec(GfKernels.vector().orElseThrow(() -> new IllegalStateException(
                "The vector kernel of " + NAME + " cannot run: " + vectorKernelProblem())));
    }

    /** Whether {@link Kernel#VECTOR} runs in this JVM; the first call probes for it and logs the outcome. */
    public static boolean isVectorKernelAvailable() {
        return GfKernels.vector().isPresent();
    }

    /**
     * Why {@link Kernel#VECTOR} cannot run in this JVM ({@code the module jdk.incubator.vector is not resolved ...}),
     * or null if it runs.
     */
    public static String vectorKernelProblem() {
        return GfKernels.vectorUnavailableReason();
    }

    private static GfKernel kernelFromProperty() {
        String value = System.getProperty(KERNEL_PROPERTY, "auto").trim().toLowerCase(Locale.ROOT);
        switch (value) {
            case "auto":
            case "":
                return GfKernels.best();
            case "scalar":
                return ScalarGfKernel.INSTANCE;
            default:
                throw new IllegalArgumentException("System property " + KERNEL_PROPERTY + " must be 'auto' or "
                        + "'scalar', got '" + System.getProperty(KERNEL_PROPERTY) + "'");
        }
    }

    /** The kernel this codec runs on. */
    public Kernel kernel() {
        return kernel;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public ErasureCoder coder(CodeParameters parameters) {
        requireNonNull(parameters, "parameters is null");
        return coders.computeIfAbsent(parameters, p -> new Coder(p, gfKernel));
    }

    /** {@code fast-rs (Backblaze-compatible Reed-Solomon, Vector API, 512-bit ByteVector nibble tables)}. */
    @Override
    public String toString() {
        return NAME + " (Backblaze-compatible Reed-Solomon, " + gfKernel.description() + ")";
    }

    private static final class Coder implements ErasureCoder {
        private final CodeParameters parameters;
        private final GfKernel gfKernel;
        private final byte[][] encodingMatrix;
        private final GfKernel.Product parity;
        /** Keyed by the present flags; a plan depends on nothing else. */
        private final Map<BitSet, DecodingPlan> plans = new ConcurrentHashMap<>();

        Coder(CodeParameters parameters, GfKernel gfKernel) {
            this.parameters = parameters;
            this.gfKernel = gfKernel;
            this.encodingMatrix = ReedSolomonMatrices.encodingMatrix(parameters);
            this.parity = gfKernel.prepare(Arrays.copyOfRange(encodingMatrix, parameters.dataBlocks(),
                    parameters.totalBlocks()));
        }

        @Override
        public CodeParameters parameters() {
            return parameters;
        }

        @Override
        public void encode(byte[][] shards, int offset, int length) {
            Stripes.checkRange(parameters, shards, offset, length);
            int k = parameters.dataBlocks();
            parity.multiply(Arrays.copyOf(shards, k), Arrays.copyOfRange(shards, k, shards.length), offset, length);
        }

        @Override
        public void decode(byte[][] shards, boolean[] present, int offset, int length) {
            Stripes.checkRange(parameters, shards, offset, length);
            if (Stripes.checkPresent(parameters, shards, present) == shards.length) {
                return;
            }
            BitSet key = new BitSet(present.length);
            for (int b = 0; b < present.length; b++) {
                key.set(b, present[b]);
            }
            DecodingPlan plan = plans.get(key);
            if (plan == null) {
                if (plans.size() >= MAX_CACHED_PLANS) {
                    plans.clear();   // a crude bound: patterns beyond it are rare, and plans are cheap to rebuild
                }
                plan = plans.computeIfAbsent(key, this::plan);
            }
            byte[][] sources = new byte[plan.sources.length][];
            for (int j = 0; j < sources.length; j++) {
                sources[j] = shards[plan.sources[j]];
            }
            byte[][] missing = new byte[plan.missing.length][];
            for (int j = 0; j < missing.length; j++) {
                missing[j] = shards[plan.missing[j]];
            }
            plan.product.multiply(sources, missing, offset, length);
        }

        /** The first k present blocks, as Backblaze picks them, rebuild every absent block in one product. */
        private DecodingPlan plan(BitSet present) {
            int k = parameters.dataBlocks();
            int[] sources = new int[k];
            int[] missing = new int[parameters.totalBlocks() - present.cardinality()];
            int s = 0;
            int m = 0;
            for (int b = 0; b < parameters.totalBlocks(); b++) {
                if (!present.get(b)) {
                    missing[m++] = b;
                } else if (s < k) {
                    sources[s++] = b;
                }
            }
            byte[][] rows = ReedSolomonMatrices.decodingMatrix(encodingMatrix, sources, missing);
            return new DecodingPlan(sources, missing, gfKernel.prepare(rows));
        }
    }

    /** Which blocks to read, which to write, and the product from one to the other. */
    private record DecodingPlan(int[] sources, int[] missing, GfKernel.Product product) {
        DecodingPlan {
            requireNonNull(sources, "sources is null");
            requireNonNull(missing, "missing is null");
            requireNonNull(product, "product is null");
        }
    }
}
