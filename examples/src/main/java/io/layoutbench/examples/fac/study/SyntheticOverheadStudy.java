package io.layoutbench.examples.fac.study;

import static java.util.Objects.requireNonNull;

import io.layoutbench.evaluation.fac.ZipfChunkSizes;
import io.layoutbench.fusion.codec.CodeParameters;
import io.layoutbench.fusion.stripe.ExactStripeSolver;
import io.layoutbench.fusion.stripe.StripeAssignment;
import io.layoutbench.fusion.stripe.StripeConstructor;
import io.layoutbench.fusion.stripe.StripeConstructors;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * The Fusion paper's synthetic storage-overhead study (its Figure 16a), for the paper's Algorithm 1 and this
 * library's refinement: chunk sizes from {@link ZipfChunkSizes}, for each code, Zipf exponent and chunk count, many
 * trials; the same chunk sizes go to every constructor and both codes.
 *
 * <p><b>The overhead reported</b> is the paper's "storage overhead relative to the optimal": how much more parity a
 * stripe construction stores than the code's optimum, which is (n - k) / k of the data (0.5x for RS(9,6)), as a
 * fraction of that optimum: {@code (parity - (n - k) / k * data) / ((n - k) / k * data) = k * sum of block sizes /
 * data - 1}. It depends on k only. The extra total bytes stored (data plus parity) relative to the optimum's is that
 * times (n - k) / n.
 *
 * <p>With {@link Config#optimumUpTo()} above 0, instances of up to that many chunks are also solved exactly by
 * {@link ExactStripeSolver}, which measures the gap to the true optimum of the no-split problem rather than to the
 * (n - k) / k bound.
 *
 * <pre>{@code
 * SyntheticOverheadStudy.Report report = SyntheticOverheadStudy.run(SyntheticOverheadStudy.Config.paper(), System.out::println);
 * Files.writeString(path, Json.write(report.toJson()));
 * }</pre>
 */
public final class SyntheticOverheadStudy {

    private SyntheticOverheadStudy() {
    }

    /**
     * What to run.
     *
     * @param codes         erasure codes
     * @param exponents     Zipf exponents of the chunk sizes
     * @param chunkCounts   chunks per object
     * @param trials        objects per cell
     * @param seed          seed of the chunk sizes
     * @param optimumCounts chunk counts of the exact-optimum comparison (empty: none)
     * @param optimumTrials objects per cell of that comparison
     * @param optimumBudget branch-and-bound nodes per object
     */
    public record Config(List<CodeParameters> codes, List<Double> exponents, List<Integer> chunkCounts, int trials,
            long seed, List<Integer> optimumCounts, int optimumTrials, long optimumBudget) {
        public Config {
            codes = List.copyOf(codes);
            exponents = List.copyOf(exponents);
            chunkCounts = List.copyOf(chunkCounts);
            optimumCounts = List.copyOf(optimumCounts);
            if (trials < 1) {
                throw new IllegalArgumentException("trials must be >= 1, got " + trials);
            }
        }

        /** The paper's study: RS(9,6) and RS(14,10), Zipf 0, 0.5, 0.99, 50 to 1,000 chunks, 100 trials. */
        public static Config paper() {
            return new Config(List.of(CodeParameters.rs(9, 6), CodeParameters.rs(14, 10)), List.of(0.0, 0.5, 0.99),
                    List.of(50, 100, 200, 300, 500, 750, 1000), 100, 20240521L, List.of(10, 15, 20, 25, 30), 20,
                    5_000_000L);
        }

        /** A small study for tests and quick looks. */
        public static Config quick() {
            return new Config(List.of(CodeParameters.rs(9, 6)), List.of(0.0, 0.99), List.of(50, 200), 5, 1L,
                    List.of(12), 3, 200_000L);
        }
    }

    /** One cell: a code, an exponent, a chunk count and a constructor, over all trials. */
    public record Cell(CodeParameters code, double exponent, int chunks, String constructor, double meanExtra,
            double stdevExtra, double minExtra, double maxExtra, double medianMicros, int trials) {

        /** Mean extra stored bytes (data and parity) relative to the optimum's. */
        public double meanExtraStored() {
            return meanExtra * code.parityBlocks() / code.totalBlocks();
        }

        Map<String, Object> toJson() {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("code", code.toString());
            json.put("zipf", exponent);
            json.put("chunks", chunks);
            json.put("constructor", constructor);
            json.put("trials", trials);
            json.put("mean_extra_overhead_pct", 100 * meanExtra);
            json.put("stdev_extra_overhead_pct", 100 * stdevExtra);
            json.put("min_extra_overhead_pct", 100 * minExtra);
            json.put("max_extra_overhead_pct", 100 * maxExtra);
            json.put("mean_extra_stored_pct", 100 * meanExtraStored());
            json.put("median_construction_us", medianMicros);
            return json;
        }
    }

    /** One cell of the exact-optimum comparison. */
    public record OptimumCell(CodeParameters code, double exponent, int chunks, double facExtra, double refinedExtra,
            double optimumExtra, double lowerBoundExtra, int proven, int trials, double medianSolveMillis) {
        Map<String, Object> toJson() {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("code", code.toString());
            json.put("zipf", exponent);
            json.put("chunks", chunks);
            json.put("trials", trials);
            json.put("proven_optimal", proven);
            json.put("fac_extra_overhead_pct", 100 * facExtra);
            json.put("fac_refined_extra_overhead_pct", 100 * refinedExtra);
            json.put("optimum_extra_overhead_pct", 100 * optimumExtra);
            json.put("lower_bound_extra_overhead_pct", 100 * lowerBoundExtra);
            json.put("median_solve_ms", medianSolveMillis);
            return json;
        }
    }

    /** Everything a run found. */
    public record Report(Config config, List<Cell> cells, List<OptimumCell> optimum) {
        public Report {
            requireNonNull(config, "config is null");
            cells = List.copyOf(cells);
            optimum = List.copyOf(optimum);
        }

        /** The cell of a code, exponent, chunk count and constructor. */
        public Cell cell(CodeParameters code, double exponent, int chunks, String constructor) {
            return cells.stream().filter(c -> c.code().equals(code) && c.exponent() == exponent
                    && c.chunks() == chunks && c.constructor().equals(constructor)).findFirst().orElseThrow(
                    () -> new IllegalArgumentException("No cell " + code + " zipf " + exponent + " " + chunks
                            + " chunks " + constructor));
        }

        /** The report as JSON-ready maps and lists. */
        public Map<String, Object> toJson() {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("study", "FAC storage overhead on synthetic chunk sizes (Fusion paper, Figure 16a)");
            json.put("overhead_definition", "extra_overhead = (parity - (n-k)/k * data) / ((n-k)/k * data)"
                    + " = k * sum(stripe block sizes) / data - 1; extra_stored = extra_overhead * (n-k)/n");
            json.put("chunk_sizes", "rank r in 1..100 with P(r) ~ r^-zipf; size = floor((1 + (r-1+u)*0.99) MiB),"
                    + " u uniform in [0,1)");
            json.put("seed", config.seed());
            json.put("trials", config.trials());
            json.put("cells", cells.stream().map(Cell::toJson).toList());
            json.put("optimum", optimum.stream().map(OptimumCell::toJson).toList());
            return json;
        }

        /** A Markdown table per code: mean extra overhead of each constructor by exponent and chunk count. */
        public String toMarkdown() {
            StringBuilder out = new StringBuilder();
            List<String> constructors = cells.stream().map(Cell::constructor).distinct().toList();
            for (CodeParameters code : config.codes()) {
                out.append("\n").append(code).append(", mean extra overhead over ").append(config.trials())
                        .append(" trials (").append(String.join(" / ", constructors)).append(")\n\n");
                out.append("| chunks |");
                config.exponents().forEach(e -> out.append(" Zipf ").append(e).append(" |"));
                out.append("\n|---:|");
                config.exponents().forEach(e -> out.append("---:|"));
                out.append('\n');
                for (int chunks : config.chunkCounts()) {
                    out.append("| ").append(chunks).append(" |");
                    for (double exponent : config.exponents()) {
                        List<String> values = new ArrayList<>();
                        for (String constructor : constructors) {
                            values.add(String.format(Locale.ROOT, "%.2f%%",
                                    100 * cell(code, exponent, chunks, constructor).meanExtra()));
                        }
                        out.append(' ').append(String.join(" / ", values)).append(" |");
                    }
                    out.append('\n');
                }
            }
            return out.toString();
        }
    }

    /** Runs {@code config} with Algorithm 1 and both refinements, reporting progress lines to {@code progress}. */
    public static Report run(Config config, Consumer<String> progress) {
        return run(config, List.of(StripeConstructors.fac(), StripeConstructors.facRefined(),
                StripeConstructors.facRefinedThorough()), progress);
    }

    /** Runs {@code config} with {@code constructors}. */
    public static Report run(Config config, List<StripeConstructor> constructors, Consumer<String> progress) {
        warmUp(constructors);
        List<Cell> cells = new ArrayList<>();
        for (CodeParameters code : config.codes()) {
            for (int e = 0; e < config.exponents().size(); e++) {
                double exponent = config.exponents().get(e);
                ZipfChunkSizes sizes = new ZipfChunkSizes(exponent);
                for (int chunks : config.chunkCounts()) {
                    double[][] extra = new double[constructors.size()][config.trials()];
                    long[][] nanos = new long[constructors.size()][config.trials()];
                    for (int t = 0; t < config.trials(); t++) {
                        long[] trial = sizes.draw(chunks, random(config.seed(), e, chunks, t));
                        for (int c = 0; c < constructors.size(); c++) {
                            long started = System.nanoTime();
                            StripeAssignment stripes = constructors.get(c).construct(trial, code.dataBlocks());
                            nanos[c][t] = System.nanoTime() - started;
                            extra[c][t] = stripes.extraOverhead();
                        }
                    }
                    for (int c = 0; c < constructors.size(); c++) {
                        Cell cell = new Cell(code, exponent, chunks, constructors.get(c).name(), mean(extra[c]),
                                stdev(extra[c]), Arrays.stream(extra[c]).min().orElse(0),
                                Arrays.stream(extra[c]).max().orElse(0), median(nanos[c]) / 1e3, config.trials());
                        cells.add(cell);
                        progress.accept(String.format(Locale.ROOT, "%s zipf %.2f %4d chunks %-12s %6.3f%% "
                                + "(median %.0f us)", code, exponent, chunks, cell.constructor(),
                                100 * cell.meanExtra(), cell.medianMicros()));
                    }
                }
            }
        }
        List<OptimumCell> optimum = new ArrayList<>();
        for (CodeParameters code : config.codes()) {
            for (int e = 0; e < config.exponents().size(); e++) {
                double exponent = config.exponents().get(e);
                ZipfChunkSizes sizes = new ZipfChunkSizes(exponent);
                for (int chunks : config.optimumCounts()) {
                    double fac = 0;
                    double refined = 0;
                    double best = 0;
                    double bound = 0;
                    int proven = 0;
                    long[] millis = new long[config.optimumTrials()];
                    for (int t = 0; t < config.optimumTrials(); t++) {
                        long[] trial = sizes.draw(chunks, random(config.seed() + 7, e, chunks, t));
                        fac += StripeConstructors.fac().construct(trial, code.dataBlocks()).extraOverhead();
                        refined += StripeConstructors.facRefined().construct(trial, code.dataBlocks())
                                .extraOverhead();
                        long started = System.nanoTime();
                        ExactStripeSolver.Result result = new ExactStripeSolver(config.optimumBudget())
                                .solve(trial, code.dataBlocks());
                        millis[t] = (System.nanoTime() - started) / 1_000_000;
                        best += result.best().extraOverhead();
                        bound += result.lowerBoundExtraOverhead();
                        proven += result.optimal() ? 1 : 0;
                    }
                    int n = config.optimumTrials();
                    OptimumCell cell = new OptimumCell(code, exponent, chunks, fac / n, refined / n, best / n,
                            bound / n, proven, n, median(millis));
                    optimum.add(cell);
                    progress.accept(String.format(Locale.ROOT, "%s zipf %.2f %4d chunks: fac %.2f%%, refined %.2f%%, "
                            + "optimum %.2f%% (proven %d/%d)", code, exponent, chunks, 100 * cell.facExtra(),
                            100 * cell.refinedExtra(), 100 * cell.optimumExtra(), proven, n));
                }
            }
        }
        return new Report(config, cells, optimum);
    }

    /** The random source of one trial: the same for every code and constructor. */
    static SplittableRandom random(long seed, int exponentIndex, int chunks, int trial) {
        return new SplittableRandom(seed * 1_000_003L + exponentIndex * 100_019L + chunks * 1_009L + trial);
    }

    private static void warmUp(List<StripeConstructor> constructors) {
        SplittableRandom random = new SplittableRandom(1);
        ZipfChunkSizes sizes = new ZipfChunkSizes(0.5);
        for (int i = 0; i < 300; i++) {
            long[] trial = sizes.draw(50 + i % 300, random);
            for (StripeConstructor constructor : constructors) {
                constructor.construct(trial, 6);
            }
        }
    }

    static double mean(double[] values) {
        return Arrays.stream(values).average().orElse(0);
    }

    static double stdev(double[] values) {
        double mean = mean(values);
        return Math.sqrt(Arrays.stream(values).map(v -> (v - mean) * (v - mean)).sum()
                / Math.max(1, values.length - 1));
    }

    static double median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted.length == 0 ? 0 : sorted.length % 2 == 1 ? sorted[sorted.length / 2]
                : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2.0;
    }
}
