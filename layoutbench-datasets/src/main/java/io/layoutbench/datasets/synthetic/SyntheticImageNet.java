package io.layoutbench.datasets.synthetic;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.dataset.MetadataRow;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.datasets.SampleSource;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Iterator;
import java.util.stream.LongStream;
import java.util.stream.Stream;

/**
 * A deterministic synthetic dataset shaped like the ImageNet-1K train set, at one of the {@link ImageNetScale}s.
 *
 * <p>Samples come in class order as in ImageNet's train folders ({@code n01440764/n01440764_10026.JPEG}, file
 * numbers rising within a class), or shuffled by the seed. Each has the paper's metadata ({@code filename},
 * {@code label}, {@code filesize_bytes}, {@code width}, {@code height}) and JPEG-like bytes of exactly
 * {@code filesize_bytes} whose SOF0 header carries the width and height (see {@link SyntheticJpeg}). File sizes
 * average about 109 KB with a long tail to several MB; shapes are mostly 500x375, 375x500 and 500x333, with some
 * camera-sized images up to 4272x2848.
 *
 * <p>The 11 LayoutBench queries return the paper's Table 2 counts exactly at mini, medium and full (Q2 with
 * {@code LIMIT} 10, 100, 1000), at any seed: the seed only decides which file of a class gets which attributes, which
 * bytes it has and the shuffled order. At {@link ImageNetScale#TINY} every query returns at least one sample.
 *
 * <p>Everything is computed from (scale, seed, index) in O(1) from a table of about 360 KB per scale, shared by all
 * instances: no per-sample state is kept, streams hold one sample at a time, and a sample's bytes take O(size) to
 * generate. Instances are immutable and thread-safe.
 *
 * <pre>{@code
 * SyntheticImageNet mini = SyntheticImageNet.of(ImageNetScale.MINI, 42L, false);
 * MetadataRow first = mini.metadata(0);          // filename n01440764_1xxxx.JPEG, label tench
 * Sample sample = mini.sample(0);                // sample.size() == first.getLong("filesize_bytes")
 * long cellos = mini.metadata().filter(r -> r.getString("label").equals("cello")).count();  // 13
 * }</pre>
 */
public final class SyntheticImageNet implements SampleSource, Iterable<Sample> {

    private static final long ORDER_KEY = 0x0D0E_5EED_0000_0001L;
    private static final long SLOT_KEY = 0x5107_5EED_0000_0002L;
    private static final long BYTES_KEY = 0xB17E_5EED_0000_0003L;
    private static final long STRATUM_KEY = 0x57A7_5EED_0000_0004L;
    /** File numbers in a class lie in [10000, 50000): five digits, so name order is number order. */
    private static final int FIRST_FILE_NUMBER = 10_000;
    private static final int FILE_NUMBER_SPAN = 40_000;
    private static final double GOLDEN = 0.6180339887498949;

    private final ImageNetScale scale;
    private final long seed;
    private final boolean shuffle;
    private final SyntheticPlan plan;
    private final ImageNetClass[] classes;
    private final long size;

    private SyntheticImageNet(ImageNetScale scale, long seed, boolean shuffle) {
        this.scale = requireNonNull(scale, "scale is null");
        this.seed = seed;
        this.shuffle = shuffle;
        this.plan = SyntheticPlan.of(scale);
        this.classes = ImageNetClasses.all().toArray(new ImageNetClass[0]);
        this.size = scale.sampleCount();
    }

    /**
     * The dataset at {@code scale}.
     *
     * @param seed    decides which file of a class gets which attributes, the sample bytes and the shuffled order
     * @param shuffle whether samples come in a seeded random order instead of class order
     */
    public static SyntheticImageNet of(ImageNetScale scale, long seed, boolean shuffle) {
        return new SyntheticImageNet(scale, seed, shuffle);
    }

    public ImageNetScale scale() {
        return scale;
    }

    public long seed() {
        return seed;
    }

    /** Whether samples come in seeded random order rather than class order. */
    public boolean shuffled() {
        return shuffle;
    }

    /** Number of samples. */
    public long size() {
        return size;
    }

    /** {@link MetadataSchema#imageNet()}. */
    @Override
    public MetadataSchema schema() {
        return MetadataSchema.imageNet();
    }

    /** The metadata of the sample at {@code index}, in [0, {@link #size()}). */
    public MetadataRow metadata(long index) {
        return row(attributes(index));
    }

    /** The file size of the sample at {@code index}, without building its metadata row. */
    public long filesizeBytes(long index) {
        return attributes(index).filesize;
    }

    /** The class of the sample at {@code index}. */
    public ImageNetClass imageNetClass(long index) {
        return classes[attributes(index).classIndex];
    }

    /** The sum of all samples' file sizes, computed from metadata (no bytes generated). */
    public long totalBytes() {
        long total = 0;
        for (long i = 0; i < size; i++) {
            total += attributes(i).filesize;
        }
        return total;
    }

    /**
     * The bytes of the sample at {@code index}: a fresh read-only buffer of exactly {@code filesize_bytes}, the
     * same for the same seed and sample whatever the order.
     */
    public ByteBuffer sampleBytes(long index) {
        return ByteBuffer.wrap(bytes(attributes(index))).asReadOnlyBuffer();
    }

    /** The sample at {@code index}, metadata and bytes. */
    public Sample sample(long index) {
        Attributes a = attributes(index);
        return new Sample(row(a), ByteBuffer.wrap(bytes(a)));
    }

    @Override
    public Stream<MetadataRow> metadata() {
        return LongStream.range(0, size).mapToObj(this::metadata);
    }

    @Override
    public Stream<Sample> samples() {
        return LongStream.range(0, size).mapToObj(this::sample);
    }

    /** The samples in order, generated one at a time as the iterator advances. */
    @Override
    public Iterator<Sample> iterator() {
        return samples().iterator();
    }

    @Override
    public String toString() {
        return "SyntheticImageNet[" + scale.scaleName() + ", seed " + seed + (shuffle ? ", shuffled" : "") + ", "
                + size + " samples]";
    }

    // ---------------------------------------------------------------------------------------------------------------

    /** A sample's attributes: base index is its position in class order, before any shuffle. */
    private static final class Attributes {
        int baseIndex;
        int classIndex;
        int slot;
        int classSize;
        long filesize;
        int width;
        int height;
    }

    private Attributes attributes(long index) {
        if (index < 0 || index >= size) {
            throw new IndexOutOfBoundsException("Sample index " + index + " out of range [0, " + size + ") of "
                    + this);
        }
        Attributes a = new Attributes();
        a.baseIndex = (int) (shuffle ? Hashing.permute(index, size, Hashing.mix64(seed, ORDER_KEY)) : index);
        int c = plan.classOf(a.baseIndex);
        a.classIndex = c;
        a.slot = a.baseIndex - plan.classStart[c];
        a.classSize = plan.classSize(c);
        // Which of the class's planned attribute tuples this file gets is the seed's choice.
        int tuple = (int) Hashing.permute(a.slot, a.classSize, Hashing.mix64(seed ^ SLOT_KEY, c));
        int cell = plan.cellOf(c, tuple);
        int k = tuple - plan.cellStart[c * (SyntheticPlan.CELLS + 1) + cell];
        int m = plan.cellCount(c, cell);
        int category = cell / SyntheticPlan.BANDS;
        int band = cell % SyntheticPlan.BANDS;
        // Stratified within the cell, with a per-cell random offset rather than the stratum midpoints: a cell
        // holding one sample of the 500 KB tail then gets any size in the tail, not always its median.
        double offset = (Hashing.mix64(c * (long) SyntheticPlan.CELLS + cell, STRATUM_KEY) >>> 11) * 0x1.0p-53;
        a.filesize = filesize(c, category, band, (k + offset) / m);
        // A Weyl sequence spreads a cell's samples over the shape table independently of their size rank.
        double phase = (Hashing.mix64(c, cell) >>> 11) * 0x1.0p-53;
        double v = (k + 0.5) * GOLDEN + phase;
        ImageCategory imageCategory = ImageCategory.values()[category];
        int shape = imageCategory.shapeAt(v - Math.floor(v));
        a.width = imageCategory.width(shape);
        a.height = imageCategory.height(shape);
        return a;
    }

    /** The size at quantile {@code u} of the class's distribution restricted to the band: stratified sampling. */
    private long filesize(int c, int category, int band, double u) {
        int at = (c * SyntheticPlan.CELLS + category * SyntheticPlan.BANDS + band) * 2;
        double low = plan.bandCdf[at];
        double high = plan.bandCdf[at + 1];
        double p = low + u * (high - low);
        p = Math.min(Math.max(p, Double.MIN_NORMAL), Math.nextDown(1.0));
        double mu = plan.logMedian[c * SyntheticPlan.CATEGORIES + category];
        double sigma = ImageCategory.values()[category].sigma();
        long bytes = Math.round(StrictMath.exp(mu + sigma * Normal.quantile(p)));
        // Rounding must never move a sample out of its band: the query counts are the band counts.
        long lowEdge = SyntheticPlan.BAND_EDGES[band];
        long highEdge = SyntheticPlan.BAND_EDGES[band + 1];
        return Math.min(Math.max(bytes, lowEdge), highEdge - 1);
    }

    private MetadataRow row(Attributes a) {
        return new MetadataRow(MetadataSchema.imageNet(), Arrays.asList(filename(a), classes[a.classIndex].label(),
                a.filesize, (long) a.width, (long) a.height));
    }

    private String filename(Attributes a) {
        int n = a.classSize;
        int stride = FILE_NUMBER_SPAN / n;
        long jitter = Math.floorMod(Hashing.mix64(a.classIndex, a.slot), stride);
        long number = FIRST_FILE_NUMBER + (long) a.slot * FILE_NUMBER_SPAN / n + jitter;
        return classes[a.classIndex].wnid() + "_" + number + ".JPEG";
    }

    private byte[] bytes(Attributes a) {
        return SyntheticJpeg.generate(Hashing.mix64(seed ^ BYTES_KEY, a.baseIndex), a.width, a.height,
                (int) a.filesize);
    }
}
