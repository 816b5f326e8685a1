package io.layoutbench.examples.fac.study;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.backend.file.FileBackend;
import io.layoutbench.evaluation.fac.ZipfChunkSizes;
import io.layoutbench.fusion.codec.CodeParameters;
import io.layoutbench.fusion.coding.ChunkMap;
import io.layoutbench.fusion.coding.ObjectSource;
import io.layoutbench.fusion.coding.ParquetChunkMaps;
import io.layoutbench.fusion.store.FacBackend;
import io.layoutbench.fusion.store.FacOptions;
import io.layoutbench.fusion.stripe.ExactStripeSolver;
import io.layoutbench.fusion.stripe.StripeConstructor;
import io.layoutbench.fusion.stripe.StripeConstructors;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.apache.commons.io.FileUtils;

/**
 * The Fusion paper's study of real Parquet files (its Figures 4a, 4d, 16b and 16c) on any Parquet files: how many
 * column chunks fixed-size blocks split, and the storage overhead of padding, of FAC (Algorithm 1), of this library's
 * refinement and of the optimum, with the time each stripe construction takes.
 *
 * <p>Overheads are given two ways. {@code extra_overhead} is the paper's synthetic-study measure: the scheme's
 * overhead (stored bytes beyond the data, per data byte) over the code's optimum (n - k) / k, minus one. For FAC,
 * whose data is never padded, that is {@code k * sum of block sizes / data - 1}. {@code extra_stored} is the extra
 * total bytes stored relative to the optimum's total: for FAC that is {@code extra_overhead * (n - k) / n}; for
 * padding, whose padding is stored and coded, it is {@code padding / data}, and its {@code extra_overhead} is that
 * times {@code n / (n - k)}.
 *
 * <p>FAC packs every region of the chunk map (chunks, and the magic, page indexes and footer), as the FAC backend
 * does. The optimum is {@link ExactStripeSolver}'s with a node budget: when it cannot prove optimality the report
 * gives its best packing and a lower bound.
 */
public final class FileCodingStudy {

    /** The constructors compared: Algorithm 1 and the two settings of the refinement. */
    static final List<StripeConstructor> CONSTRUCTORS = List.of(StripeConstructors.fac(),
            StripeConstructors.facRefined(), StripeConstructors.facRefinedThorough());

    /**
     * Block sizes of the split and padding columns: 1 MB to 100 MB as in the paper's Figure 4a, and 256 KB and 2 MB,
     * which are to a file 50 times smaller (TPC-H SF 1 against the paper's 300 M-row lineitem) what 12.8 MB and
     * 100 MB are to the paper's.
     */
    public static final List<Long> BLOCK_SIZES = List.of(256L << 10, 1L << 20, 2L << 20, 4L << 20, 16L << 20,
            64L << 20, 100L << 20);

    private FileCodingStudy() {
    }

    /**
     * What to run.
     *
     * @param codes          erasure codes
     * @param blockSizes     fixed block sizes for the split fraction and padding
     * @param optimumBudget  branch-and-bound nodes for the optimum
     * @param timingRuns     runs of each constructor whose median is the construction time
     * @param measurePut     whether to time a FAC put of each file to nine local directories (RS(9,6) only)
     * @param scratch        where the put's node directories go
     */
    public record Config(List<CodeParameters> codes, List<Long> blockSizes, long optimumBudget, int timingRuns,
            boolean measurePut, Path scratch) {
        public Config {
            codes = List.copyOf(codes);
            blockSizes = List.copyOf(blockSizes);
            requireNonNull(scratch, "scratch is null");
        }

        /** RS(9,6) and RS(14,10), the paper's block sizes, 20 M nodes for the optimum, a timed put. */
        public static Config defaults(Path scratch) {
            return new Config(List.of(CodeParameters.rs(9, 6), CodeParameters.rs(14, 10)), BLOCK_SIZES,
                    20_000_000L, 201, true, scratch);
        }
    }

    /** One file under one code. */
    public record Result(String file, String dataset, CodeParameters code, long bytes, int chunks, int regions,
            long largestChunk, Map<Long, Double> splitFraction, Map<Long, Double> paddingExtraStored,
            Map<String, Double> extra, Map<String, Double> micros, double optimumExtra, double lowerBoundExtra,
            boolean optimumProven, double optimumMillis, double putMillis) {

        /** Algorithm 1's extra overhead. */
        public double facExtra() {
            return extra.get(StripeConstructors.fac().name());
        }

        /** The default refinement's extra overhead. */
        public double refinedExtra() {
            return extra.get(StripeConstructors.facRefined().name());
        }

        Map<String, Object> toJson() {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("file", file);
            json.put("dataset", dataset);
            json.put("code", code.toString());
            json.put("bytes", bytes);
            json.put("column_chunks", chunks);
            json.put("regions", regions);
            json.put("largest_chunk_bytes", largestChunk);
            Map<String, Object> split = new LinkedHashMap<>();
            splitFraction.forEach((size, fraction) -> split.put(mb(size), 100 * fraction));
            json.put("chunks_split_by_fixed_blocks_pct", split);
            Map<String, Object> padding = new LinkedHashMap<>();
            paddingExtraStored.forEach((size, extra) -> padding.put(mb(size), Map.of(
                    "extra_stored_pct", 100 * extra,
                    "extra_overhead_pct", 100 * extra * code.totalBlocks() / code.parityBlocks())));
            json.put("padding", padding);
            extra.forEach((name, value) -> {
                Map<String, Object> scheme = scheme(value);
                scheme.put("construction_us", micros.get(name));
                scheme.put("over_optimum_pct", 100 * ((1 + value) / (1 + optimumExtra) - 1));
                json.put(name.replace('-', '_'), scheme);
            });
            Map<String, Object> optimum = scheme(optimumExtra);
            optimum.put("proven", optimumProven);
            optimum.put("lower_bound_extra_overhead_pct", 100 * lowerBoundExtra);
            json.put("optimum", optimum);
            json.put("optimum_search_ms", optimumMillis);
            if (putMillis > 0) {
                json.put("fac_put_ms", putMillis);
                Map<String, Object> share = new LinkedHashMap<>();
                micros.forEach((name, value) -> share.put(name, 100 * value / 1e3 / putMillis));
                json.put("construction_share_of_put_pct", share);
            }
            return json;
        }

        private Map<String, Object> scheme(double extra) {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("extra_overhead_pct", 100 * extra);
            json.put("extra_stored_pct", 100 * extra * code.parityBlocks() / code.totalBlocks());
            return json;
        }
    }

    /** A file to study and the dataset it belongs to (for grouping in reports). */
    public record Input(Path file, String dataset) {
    }

    /** Studies every input under every code. */
    public static List<Result> run(List<Input> inputs, Config config, Consumer<String> progress) {
        warmUp();
        List<Result> results = new ArrayList<>();
        for (Input input : inputs) {
            ChunkMap map;
            try (ObjectSource source = ObjectSource.of(input.file())) {
                map = ParquetChunkMaps.read(source);
            }
            double putMillis = config.measurePut() ? timePut(input.file(), config.scratch()) : 0;
            for (CodeParameters code : config.codes()) {
                Result result = study(input, map, code, config, code.equals(CodeParameters.rs(9, 6)) ? putMillis : 0);
                results.add(result);
                progress.accept(String.format(Locale.ROOT, "%s %s: %d chunks, FAC %+.2f%%, refined %+.2f%%, optimum "
                        + "%+.2f%%%s (extra overhead); FAC %.0f us, refined %.0f us", input.file().getFileName(),
                        code, result.chunks(), 100 * result.facExtra(), 100 * result.refinedExtra(),
                        100 * result.optimumExtra(), result.optimumProven() ? "" : " (best found)",
                        result.micros().get("fac"), result.micros().get("fac-refined")));
            }
        }
        return results;
    }

    private static Result study(Input input, ChunkMap map, CodeParameters code, Config config, double putMillis) {
        long[] sizes = map.regionSizes();
        int k = code.dataBlocks();
        Map<Long, Double> split = new LinkedHashMap<>();
        Map<Long, Double> padding = new LinkedHashMap<>();
        for (long blockSize : config.blockSizes()) {
            split.put(blockSize, BaselineLayouts.splitFraction(map, blockSize));
            padding.put(blockSize, map.objectSize() == 0 ? 0
                    : (double) (BaselineLayouts.paddedLength(map, blockSize) - map.objectSize()) / map.objectSize());
        }
        Map<String, Double> extra = new LinkedHashMap<>();
        Map<String, Double> micros = new LinkedHashMap<>();
        for (StripeConstructor constructor : CONSTRUCTORS) {
            extra.put(constructor.name(), constructor.construct(sizes, k).extraOverhead());
            micros.put(constructor.name(), time(constructor, sizes, k, constructor == StripeConstructors.fac()
                    ? config.timingRuns() : Math.max(1, config.timingRuns() / 10)));
        }
        long started = System.nanoTime();
        ExactStripeSolver.Result optimum = new ExactStripeSolver(config.optimumBudget()).solve(sizes, k);
        double optimumMillis = (System.nanoTime() - started) / 1e6;
        long largest = map.chunks().stream().mapToLong(c -> c.range().length()).max().orElse(0);
        return new Result(input.file().getFileName().toString(), input.dataset(), code, map.objectSize(),
                map.chunks().size(), map.regions().size(), largest, split, padding, extra, micros,
                optimum.best().extraOverhead(), optimum.lowerBoundExtraOverhead(), optimum.optimal(), optimumMillis,
                putMillis);
    }

    /** Median microseconds of {@code runs} constructions. */
    static double time(StripeConstructor constructor, long[] sizes, int k, int runs) {
        long[] nanos = new long[Math.max(1, runs)];
        for (int r = 0; r < nanos.length; r++) {
            long started = System.nanoTime();
            constructor.construct(sizes, k);
            nanos[r] = System.nanoTime() - started;
        }
        return SyntheticOverheadStudy.median(nanos) / 1e3;
    }

    /** Milliseconds of a FAC put (RS(9,6), refined) of {@code file} to nine fresh local directories. */
    static double timePut(Path file, Path scratch) {
        Path root;
        try {
            Files.createDirectories(scratch);
            root = Files.createTempDirectory(scratch, "fac-put-");
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create a scratch directory in " + scratch, e);
        }
        List<ObjectBackend> nodes = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            nodes.add(new FileBackend(root.resolve("node-" + i)));
        }
        try (FacBackend fac = FacBackend.create(nodes, FacOptions.builder().tempDirectory(scratch).build(), true)) {
            long started = System.nanoTime();
            fac.put("object.parquet", file);
            return (System.nanoTime() - started) / 1e6;
        } finally {
            FileUtils.deleteQuietly(root.toFile());   // scratch space: what is left, the OS cleans
        }
    }

    private static void warmUp() {
        long[] sizes = new ZipfChunkSizes(0.5).draw(300, new java.util.SplittableRandom(3));
        for (int i = 0; i < 200; i++) {
            StripeConstructors.fac().construct(sizes, 6);
            StripeConstructors.facRefined().construct(sizes, 6);
        }
    }

    /** The results as JSON-ready maps and lists. */
    public static Map<String, Object> toJson(List<Result> results, Map<String, Object> provenance) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("study", "FAC on real Parquet files (Fusion paper, Figures 4a, 4d, 16b, 16c)");
        json.put("overhead_definition", "extra_overhead = (stored - data) / data / ((n-k)/k) - 1; extra_stored = "
                + "stored / ((n/k) * data) - 1; padding is stored and coded");
        json.put("provenance", provenance);
        json.put("files", results.stream().map(Result::toJson).toList());
        return json;
    }

    /** Markdown tables: split fractions, and overheads with construction times. */
    public static String toMarkdown(List<Result> results) {
        StringBuilder out = new StringBuilder();
        List<Result> rs96 = results.stream().filter(r -> r.code().equals(CodeParameters.rs(9, 6))).toList();
        if (!rs96.isEmpty()) {
            List<Long> blocks = new ArrayList<>(rs96.get(0).splitFraction().keySet());
            out.append("\nColumn chunks split by fixed-size blocks\n\n| file | chunks | largest chunk |");
            blocks.forEach(b -> out.append(' ').append(mb(b)).append(" |"));
            out.append("\n|---|---:|---:|");
            blocks.forEach(b -> out.append("---:|"));
            out.append('\n');
            for (Result r : rs96) {
                out.append("| ").append(r.dataset()).append(' ').append(r.file()).append(" | ").append(r.chunks())
                        .append(" | ").append(String.format(Locale.ROOT, "%.1f MB", r.largestChunk() / 1048576.0))
                        .append(" |");
                blocks.forEach(b -> out.append(String.format(Locale.ROOT, " %.0f%% |",
                        100 * r.splitFraction().get(b))));
                out.append('\n');
            }
        }
        out.append("\nExtra storage overhead over the code's optimum (extra overhead; padding at 1 / 4 / 16 MB blocks"
                + " as extra stored bytes; * = best found, not proven optimal)\n\n| file | code | padding 1/4/16 MB | "
                + "FAC (Alg. 1) | refined | refined, thorough | optimum | Alg. 1 over optimum | Alg. 1 us | refined us |"
                + " thorough us |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Result r : results) {
            String padding = Stream.of(1L << 20, 4L << 20, 16L << 20).filter(r.paddingExtraStored()::containsKey)
                    .map(b -> String.format(Locale.ROOT, "%.1f%%", 100 * r.paddingExtraStored().get(b)))
                    .reduce((a, b) -> a + " / " + b).orElse("-");
            String thorough = StripeConstructors.facRefinedThorough().name();
            out.append(String.format(Locale.ROOT, "| %s %s | %s | %s | %.2f%% | %.2f%% | %.2f%% | %.2f%%%s | %.2f%% |"
                    + " %.0f | %.0f | %.0f |%n", r.dataset(), r.file(), r.code(), padding, 100 * r.facExtra(),
                    100 * r.refinedExtra(), 100 * r.extra().get(thorough), 100 * r.optimumExtra(),
                    r.optimumProven() ? "" : "*", 100 * ((1 + r.facExtra()) / (1 + r.optimumExtra()) - 1),
                    r.micros().get("fac"), r.micros().get("fac-refined"), r.micros().get(thorough)));
        }
        return out.toString();
    }

    static String mb(long bytes) {
        return bytes % (1 << 20) == 0 ? (bytes >> 20) + " MB" : bytes % (1 << 10) == 0 ? (bytes >> 10) + " KB"
                : String.format(Locale.ROOT, "%.2f MB", bytes / 1048576.0);
    }
}
