package io.layoutbench.fusion.codec;

import java.util.Arrays;
import java.util.Optional;
import java.util.Random;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds out, once per JVM, whether the {@code jdk.incubator.vector} kernel can run here, and says in the log which
 * kernel {@code fast-rs} uses and why. The vector kernel's class names types of a module that is only there when the
 * JVM was started with {@code --add-modules jdk.incubator.vector}, so it is loaded reflectively, after checking for
 * the module, with every {@link LinkageError} caught: a JVM without the module gets the scalar kernel, not an error.
 *
 * <pre>{@code
 * GfKernel best = GfKernels.best();                        // vector if it can run, else scalar
 * Optional<GfKernel> vector = GfKernels.vector();
 * String why = GfKernels.vectorUnavailableReason();      // null when the vector kernel runs
 * }</pre>
 */
final class GfKernels {

    static final String VECTOR_MODULE = "jdk.incubator.vector";

    private static final Logger LOG = LoggerFactory.getLogger(GfKernels.class);

    private GfKernels() {
    }

    /** The vector kernel, if it can run in this JVM. */
    static Optional<GfKernel> vector() {
        return Optional.ofNullable(Probe.VECTOR);
    }

    /** Why the vector kernel cannot run, or null if it can. */
    static String vectorUnavailableReason() {
        return Probe.REASON;
    }

    /** The fastest kernel that runs here; the first call logs which one it is. */
    static GfKernel best() {
        return Probe.BEST;
    }

    /** Holds the probe's outcome; initialised (and logged) on first use only. */
    private static final class Probe {
        static final GfKernel VECTOR;
        static final String REASON;
        static final GfKernel BEST;

        static {
            GfKernel vector = null;
            String reason;
            if (ModuleLayer.boot().findModule(VECTOR_MODULE).isEmpty()) {
                reason = "the module " + VECTOR_MODULE + " is not resolved (start the JVM with --add-modules "
                        + VECTOR_MODULE + " for the vector kernel)";
            } else {
                try {
                    vector = (GfKernel) Class.forName(GfKernels.class.getPackageName() + ".VectorGfKernel")
                            .getDeclaredConstructor().newInstance();
                    reason = selfCheck(vector);
                } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
                    Throwable cause = e.getCause() != null ? e.getCause() : e;
                    reason = "it failed to load: " + cause;
                }
                if (reason != null) {
                    vector = null;
                }
            }
            VECTOR = vector;
            REASON = reason;
            BEST = vector != null ? vector : ScalarGfKernel.INSTANCE;
            if (vector != null) {
                LOG.info("Erasure codec {} kernel: {}", FastReedSolomonCodec.NAME, vector.description());
            } else {
                LOG.info("Erasure codec {} kernel: {}, as the vector kernel cannot run: {}", FastReedSolomonCodec.NAME,
                        ScalarGfKernel.INSTANCE.description(), reason);
            }
        }

        /**
         * Null if {@code vector} multiplies as the scalar kernel does (over whole vectors and a tail), else what
         * differs: a kernel that is wrong on this platform must never write parity.
         */
        private static String selfCheck(GfKernel vector) {
            Random random = new Random(42);
            byte[][] coefficients = new byte[5][3];
            byte[][] inputs = new byte[3][1000];
            for (byte[] row : coefficients) {
                random.nextBytes(row);
            }
            for (byte[] input : inputs) {
                random.nextBytes(input);
            }
            byte[][] expected = new byte[5][1000];
            byte[][] actual = new byte[5][1000];
            ScalarGfKernel.INSTANCE.prepare(coefficients).multiply(inputs, expected, 3, 990);
            vector.prepare(coefficients).multiply(inputs, actual, 3, 990);
            return Arrays.deepEquals(expected, actual) ? null
                    : "its self-check products differ from the scalar kernel's";
        }
    }
}
