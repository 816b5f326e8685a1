package io.layoutbench.jmh.predicate;

import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.predicate.BoundQuery;
import io.layoutbench.api.predicate.ColumnarTable;
import io.layoutbench.api.predicate.PaperQueries;
import io.layoutbench.api.predicate.Selection;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Bind-once, evaluate-many: the time to turn a bound paper query into the row ids it selects, over an
 * ImageNet-sized (1,281,167 rows) metadata table held as a {@link ColumnarTable}. This is the client-side filter
 * cost every layout pays before it fetches a single sample.
 *
 * <p>The table is synthetic but shaped like ImageNet's training set: 1000 classes of about 1281 images, including
 * every class the paper's queries name and ten whose names end in {@code snake}; log-normal file sizes with a mean
 * near 110 KB; mostly 500x375 / 375x500 / 500x500 images with a spread and a 2% tail above 1024 pixels. Rows are in
 * shuffled order, as in a dataset laid out for training.
 *
 * <pre>
 * java -jar layoutbench-jmh/target/benchmarks.jar ColumnarEvaluatorBenchmark -f 1 -wi 2 -i 3 -w 1 -r 1
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class ColumnarEvaluatorBenchmark {
    /** Images in the ImageNet-1k training set. */
    static final int ROWS = 1_281_167;

    private static final String[] PAPER_LABELS = {"streetcar", "lemon", "cello", "tiger_cat", "bagel", "canoe",
            "starfish", "Old_English_sheepdog", "giant_panda", "water_buffalo"};
    /** ImageNet's snake classes: ten end in "snake" (Q4 matches those), the others do not. */
    private static final String[] SNAKES = {"thunder_snake", "ringneck_snake", "hognose_snake", "green_snake",
            "king_snake", "garter_snake", "water_snake", "vine_snake", "night_snake", "sea_snake",
            "boa_constrictor", "rock_python", "Indian_cobra", "green_mamba", "horned_viper", "diamondback",
            "sidewinder"};

    @Param({"Q1", "Q2", "Q3", "Q4", "Q5", "Q6", "Q7", "Q8", "Q9", "Q10", "Q11"})
    public String query;

    private ColumnarTable table;
    private BoundQuery bound;

    @Setup(Level.Trial)
    public void setUp() {
        table = imageNetLikeTable(new Random(20_240_601L));
        // Q2 at full scale: LIMIT 1000.
        bound = PaperQueries.get(query, "full").bind(table.schema());
        Selection sample = bound.select(table);
        System.out.printf("%n%s (%s) selects %d of %d rows; table ~%d MB%n", query, bound, sample.size(),
                table.rowCount(), table.estimatedSizeBytes() >> 20);
    }

    @Benchmark
    public void select(Blackhole blackhole) {
        blackhole.consume(bound.select(table));
    }

    static ColumnarTable imageNetLikeTable(Random random) {
        List<String> labels = new ArrayList<>(List.of(PAPER_LABELS));
        labels.addAll(List.of(SNAKES));
        for (int i = labels.size(); i < 1000; i++) {
            labels.add("synthetic_class_" + i);
        }
        // Every class gets floor or ceil of ROWS / 1000 images, dealt out in a shuffled order.
        int[] classOfRow = new int[ROWS];
        for (int r = 0; r < ROWS; r++) {
            classOfRow[r] = r % labels.size();
        }
        for (int r = ROWS - 1; r > 0; r--) {
            int j = random.nextInt(r + 1);
            int t = classOfRow[r];
            classOfRow[r] = classOfRow[j];
            classOfRow[j] = t;
        }
        int[] perClass = new int[labels.size()];
        ColumnarTable.Builder builder = ColumnarTable.builder(MetadataSchema.imageNet(), ROWS);
        for (int r = 0; r < ROWS; r++) {
            int c = classOfRow[r];
            String filename = String.format("n%08d_%d.JPEG", 1_440_764 + c * 1_117, perClass[c]++);
            // Log-normal: median ~93 KB, mean ~110 KB, a tail past 500 KB.
            long size = Math.max(2_000L, (long) Math.exp(11.44 + 0.58 * random.nextGaussian()));
            long width;
            long height;
            int shape = random.nextInt(100);
            if (shape < 58) {
                width = 500;
                height = 333 + random.nextInt(43);
            } else if (shape < 73) {
                width = 333 + random.nextInt(43);
                height = 500;
            } else if (shape < 83) {
                width = 500;
                height = 500;
            } else if (shape < 98) {
                width = 100 + random.nextInt(924);
                height = Math.max(50, Math.round(width * (0.5 + random.nextDouble())));
            } else {
                width = 1024 + random.nextInt(3000);
                height = 768 + random.nextInt(2300);
            }
            builder.add(filename, labels.get(c), size, width, height);
        }
        return builder.build();
    }
}
