package io.layoutbench.fusion.store;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.ConfigurationException;
import io.layoutbench.fusion.codec.CodeParameters;
import io.layoutbench.fusion.codec.ErasureCodecs;
import io.layoutbench.fusion.coding.CodingPlanner;
import io.layoutbench.fusion.stripe.RefinedFacStripeConstructor;
import io.layoutbench.fusion.stripe.StripeConstructors;
import io.layoutbench.layouts.common.LayoutOptions;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * How a {@link FacBackend} encodes the objects it stores. Reading needs none of this: every object's manifest says
 * how it was encoded. Immutable.
 *
 * <pre>{@code
 * FacOptions options = FacOptions.builder().code(CodeParameters.rs(14, 10)).stripeConstructor("fac").build();
 * FacOptions fromText = FacOptions.fromMap(Map.of("code", "RS(9,6)", "overhead-budget", "0.03"));
 * }</pre>
 *
 * @param code              the erasure code, RS(9,6) by default
 * @param codec             the {@link io.layoutbench.fusion.codec.ErasureCodec} by name; by default
 *                          {@link ErasureCodecs#DEFAULT}: {@code fast-rs} where the Vector API runs, else
 *                          {@code backblaze-rs} (same parity)
 * @param stripeConstructor {@code fac} (the paper's Algorithm 1) or {@code fac-refined} (the default)
 * @param overheadBudget    most extra parity over the code's optimum FAC may cost before the object is stored in
 *                          fixed-size blocks instead, as a fraction (0.05)
 * @param fixedBlockSize    block size when FAC is not used (4 MiB)
 * @param singleBlockLimit  objects up to this size are stored whole in one data block, read with one node read
 *                          (0, none, by default; the fac layout: 1 MiB)
 * @param checksumUnit      every block has a CRC32C per unit of this many bytes (64 KiB), checked on every read; a
 *                          ranged read fetches whole units
 * @param memorySpoolLimit  objects up to this size are buffered in memory while encoded, larger ones in a temporary
 *                          file (64 MiB)
 * @param tempDirectory     where temporary files go
 * @param ioThreads         threads writing blocks to nodes in parallel (16)
 */
public record FacOptions(CodeParameters code, String codec, String stripeConstructor, double overheadBudget,
        long fixedBlockSize, long singleBlockLimit, int checksumUnit, long memorySpoolLimit, Path tempDirectory,
        int ioThreads) {

    /** Option key of {@link #code()} in {@link #fromMap}. */
    public static final String CODE = "code";
    /** Option key of {@link #codec()}. */
    public static final String CODEC = "codec";
    /** Option key of {@link #stripeConstructor()}. */
    public static final String STRIPE_CONSTRUCTOR = "stripe-constructor";
    /** Option key of {@link #overheadBudget()}. */
    public static final String OVERHEAD_BUDGET = "overhead-budget";
    /** Option key of {@link #fixedBlockSize()}. */
    public static final String FIXED_BLOCK_SIZE = "fixed-block-size";
    /** Option key of {@link #singleBlockLimit()}. */
    public static final String SINGLE_BLOCK_LIMIT = "single-block-limit";
    /** Option key of {@link #checksumUnit()}. */
    public static final String CHECKSUM_UNIT = "checksum-unit";
    /** All option keys {@link #fromMap} knows. */
    public static final Set<String> KEYS = Set.of(CODE, CODEC, STRIPE_CONSTRUCTOR, OVERHEAD_BUDGET, FIXED_BLOCK_SIZE,
            SINGLE_BLOCK_LIMIT, CHECKSUM_UNIT);

    public FacOptions {
        requireNonNull(code, "code is null");
        requireNonNull(codec, "codec is null");
        requireNonNull(stripeConstructor, "stripeConstructor is null");
        requireNonNull(tempDirectory, "tempDirectory is null");
        StripeConstructors.named(stripeConstructor);   // fails naming the known ones
        if (!(overheadBudget >= 0)) {
            throw new ConfigurationException("The overhead budget must be >= 0, got " + overheadBudget);
        }
        if (singleBlockLimit < 0) {
            throw new ConfigurationException("fac option '" + SINGLE_BLOCK_LIMIT + "' must be >= 0, got "
                    + singleBlockLimit);
        }
        if (fixedBlockSize < 1 || checksumUnit < 512 || checksumUnit > (64 << 20) || memorySpoolLimit < 0
                || ioThreads < 1) {
            throw new ConfigurationException("Invalid FAC options: fixedBlockSize " + fixedBlockSize
                    + " (>= 1), checksumUnit " + checksumUnit + " (512 B to 64 MiB), memorySpoolLimit "
                    + memorySpoolLimit + " (>= 0), ioThreads " + ioThreads + " (>= 1)");
        }
    }

    /**
     * The defaults: RS(9,6), {@link ErasureCodecs#DEFAULT}, refined FAC, 5% budget, 4 MiB fixed blocks, 64 KiB
     * checksum units.
     */
    public static FacOptions defaults() {
        return builder().build();
    }

    /** A builder starting from the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Options from text, as layouts and the command line give them; unset keys keep their defaults.
     *
     * @throws IllegalArgumentException naming an unknown key or a bad value
     */
    public static FacOptions fromMap(Map<String, String> values) {
        LayoutOptions checked = LayoutOptions.of("fac", values, KEYS);
        Builder builder = builder();
        if (values.containsKey(CODE)) {
            builder.code(CodeParameters.parse(values.get(CODE)));
        }
        if (values.containsKey(CODEC)) {
            builder.codec(values.get(CODEC).trim().toLowerCase(Locale.ROOT));
        }
        if (values.containsKey(STRIPE_CONSTRUCTOR)) {
            builder.stripeConstructor(values.get(STRIPE_CONSTRUCTOR).trim());
        }
        if (values.containsKey(OVERHEAD_BUDGET)) {
            String text = values.get(OVERHEAD_BUDGET).trim();
            try {
                builder.overheadBudget(text.endsWith("%") ? Double.parseDouble(text.substring(0, text.length() - 1))
                        / 100 : Double.parseDouble(text));
            } catch (NumberFormatException e) {
                throw new ConfigurationException("fac option '" + OVERHEAD_BUDGET + "' must be a fraction like 0.05 "
                        + "or a percentage like 5%, got '" + text + "'");
            }
        }
        builder.fixedBlockSize(checked.size(FIXED_BLOCK_SIZE, CodingPlanner.DEFAULT_FIXED_BLOCK_SIZE));
        String singleBlock = values.getOrDefault(SINGLE_BLOCK_LIMIT, "0").trim();
        builder.singleBlockLimit(singleBlock.equals("0") ? 0 : checked.size(SINGLE_BLOCK_LIMIT, 0));   // 0: none
        builder.checksumUnit(Math.toIntExact(checked.size(CHECKSUM_UNIT, Builder.DEFAULT_CHECKSUM_UNIT)));
        return builder.build();
    }

    /** The options as text, the inverse of {@link #fromMap} (the local settings are left out). */
    public Map<String, String> toMap() {
        return Map.of(CODE, code.toString(), CODEC, codec, STRIPE_CONSTRUCTOR, stripeConstructor,
                OVERHEAD_BUDGET, Double.toString(overheadBudget), FIXED_BLOCK_SIZE, Long.toString(fixedBlockSize),
                SINGLE_BLOCK_LIMIT, Long.toString(singleBlockLimit), CHECKSUM_UNIT, Integer.toString(checksumUnit));
    }

    /** The planner these options describe. */
    public CodingPlanner planner() {
        return new CodingPlanner(code, StripeConstructors.named(stripeConstructor), overheadBudget, fixedBlockSize,
                singleBlockLimit);
    }

    /** Builds {@link FacOptions}. */
    public static final class Builder {
        static final int DEFAULT_CHECKSUM_UNIT = 64 << 10;

        private CodeParameters code = CodeParameters.rs(9, 6);
        private String codec = ErasureCodecs.DEFAULT;
        private String stripeConstructor = RefinedFacStripeConstructor.NAME;
        private double overheadBudget = CodingPlanner.DEFAULT_OVERHEAD_BUDGET;
        private long fixedBlockSize = CodingPlanner.DEFAULT_FIXED_BLOCK_SIZE;
        private long singleBlockLimit;
        private int checksumUnit = DEFAULT_CHECKSUM_UNIT;
        private long memorySpoolLimit = 64L << 20;
        private Path tempDirectory = Path.of(System.getProperty("java.io.tmpdir"));
        private int ioThreads = 16;

        private Builder() {
        }

        public Builder code(CodeParameters code) {
            this.code = code;
            return this;
        }

        public Builder codec(String codec) {
            this.codec = codec;
            return this;
        }

        public Builder stripeConstructor(String name) {
            this.stripeConstructor = name;
            return this;
        }

        public Builder overheadBudget(double budget) {
            this.overheadBudget = budget;
            return this;
        }

        public Builder fixedBlockSize(long bytes) {
            this.fixedBlockSize = bytes;
            return this;
        }

        public Builder singleBlockLimit(long bytes) {
            this.singleBlockLimit = bytes;
            return this;
        }

        public Builder checksumUnit(int bytes) {
            this.checksumUnit = bytes;
            return this;
        }

        public Builder memorySpoolLimit(long bytes) {
            this.memorySpoolLimit = bytes;
            return this;
        }

        public Builder tempDirectory(Path directory) {
            this.tempDirectory = directory;
            return this;
        }

        public Builder ioThreads(int threads) {
            this.ioThreads = threads;
            return this;
        }

        public FacOptions build() {
            return new FacOptions(code, codec, stripeConstructor, overheadBudget, fixedBlockSize, singleBlockLimit,
                    checksumUnit, memorySpoolLimit, tempDirectory, ioThreads);
        }
    }
}
