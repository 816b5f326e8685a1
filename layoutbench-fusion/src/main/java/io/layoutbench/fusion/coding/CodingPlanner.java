package io.layoutbench.fusion.coding;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.fusion.codec.CodeParameters;
import io.layoutbench.fusion.stripe.StripeAssignment;
import io.layoutbench.fusion.stripe.StripeConstructor;
import io.layoutbench.fusion.stripe.StripeConstructors;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Chooses how to cut an object into stripes, as Fusion's Put does: when the object has column chunks, FAC packs
 * its regions whole into data blocks with a {@link StripeConstructor}; when that costs more parity than the budget
 * allows over the code's optimum, or the object has no chunks, it is cut into fixed-size blocks instead (which may
 * split chunks). Immutable and thread-safe.
 *
 * <p>An object no larger than the single-block limit (0, none, unless set) is stored whole in the first data block
 * of one stripe, the others empty: a reader gets it whole with one node read, not k, at the cost of n - k copies of
 * it in parity. For the small objects a reader takes whole (a dataset's manifest, a part's metadata file) that round
 * trip is what matters: reading from k nodes at once waits for the slowest of them.
 *
 * <p>Inside a data block, regions are written in object order, so neighbouring chunks of one block can be read with
 * one request. Fixed-size blocks: every full stripe has k blocks of {@code fixedBlockSize}; the last stripe has k
 * blocks of {@code ceil(rest / k)} bytes (the last one shorter), so small objects cost no more parity than needed.
 *
 * <pre>{@code
 * CodingPlanner planner = new CodingPlanner(CodeParameters.rs(9, 6), StripeConstructors.facRefined(), 0.05, 4 << 20);
 * CodingPlan plan = planner.plan(ParquetChunkMaps.read(source));
 * }</pre>
 */
public final class CodingPlanner {

    /** Default budget: FAC may cost 5% more parity than the optimum before fixed blocks are used instead. */
    public static final double DEFAULT_OVERHEAD_BUDGET = 0.05;
    /** Default size of fixed blocks: 4 MiB. */
    public static final long DEFAULT_FIXED_BLOCK_SIZE = 4L << 20;

    private final CodeParameters code;
    private final StripeConstructor constructor;
    private final double overheadBudget;
    private final long fixedBlockSize;
    private final long singleBlockLimit;

    /** A planner without a single-block limit. */
    public CodingPlanner(CodeParameters code, StripeConstructor constructor, double overheadBudget,
            long fixedBlockSize) {
        this(code, constructor, overheadBudget, fixedBlockSize, 0);
    }

    /**
     * @param code           the erasure code
     * @param constructor    packs regions into stripes
     * @param overheadBudget most extra parity over the optimum FAC may cost, as a fraction (0.05 = 5%)
     * @param fixedBlockSize block size of the fallback
     * @param singleBlockLimit objects up to this size go whole into one data block (0: none)
     */
    public CodingPlanner(CodeParameters code, StripeConstructor constructor, double overheadBudget,
            long fixedBlockSize, long singleBlockLimit) {
        this.code = requireNonNull(code, "code is null");
        this.constructor = requireNonNull(constructor, "constructor is null");
        if (!(overheadBudget >= 0)) {
            throw new IllegalArgumentException("The overhead budget must be >= 0, got " + overheadBudget);
        }
        if (fixedBlockSize < 1) {
            throw new IllegalArgumentException("The fixed block size must be >= 1 byte, got " + fixedBlockSize);
        }
        this.overheadBudget = overheadBudget;
        this.fixedBlockSize = fixedBlockSize;
        if (singleBlockLimit < 0) {
            throw new IllegalArgumentException("The single-block limit must be >= 0, got " + singleBlockLimit);
        }
        this.singleBlockLimit = singleBlockLimit;
    }

    /** A planner for {@code code} with the refined constructor and the default budget and block size. */
    public static CodingPlanner defaults(CodeParameters code) {
        return new CodingPlanner(code, StripeConstructors.facRefined(), DEFAULT_OVERHEAD_BUDGET,
                DEFAULT_FIXED_BLOCK_SIZE);
    }

    /** The code. */
    public CodeParameters code() {
        return code;
    }

    /** The plan for the object {@code map} describes. */
    public CodingPlan plan(ChunkMap map) {
        requireNonNull(map, "map is null");
        if (map.objectSize() > 0 && map.objectSize() <= singleBlockLimit) {
            return singleBlock(map.objectSize());
        }
        if (map.hasChunks()) {
            CodingPlan fac = fac(map, constructor.construct(map.regionSizes(), code.dataBlocks()));
            if (fac.extraOverhead() <= overheadBudget) {
                return fac;
            }
        }
        return fixedBlocks(map.objectSize());
    }

    /** The FAC plan of {@code map} from {@code assignment}, whatever its overhead. */
    public CodingPlan fac(ChunkMap map, StripeAssignment assignment) {
        List<ObjectRegion> regions = map.regions();
        if (assignment.itemCount() != regions.size() || assignment.dataBlocks() != code.dataBlocks()) {
            throw new IllegalArgumentException("The assignment packs " + assignment.itemCount() + " items in "
                    + assignment.dataBlocks() + " data blocks per stripe; the map has " + regions.size()
                    + " regions and " + code + " " + code.dataBlocks());
        }
        List<StripePlan> stripes = new ArrayList<>();
        for (int s = 0; s < assignment.stripeCount(); s++) {
            List<BlockPlan> blocks = new ArrayList<>();
            for (int b = 0; b < code.dataBlocks(); b++) {
                int[] items = assignment.items(s, b);
                Arrays.sort(items);   // regions are in object order, so this is object order too
                List<ByteRange> segments = new ArrayList<>();
                for (int item : items) {
                    ByteRange range = regions.get(item).range();
                    int last = segments.size() - 1;
                    if (last >= 0 && segments.get(last).end() == range.offset()) {
                        segments.set(last, segments.get(last).span(range));   // neighbours: one segment
                    } else {
                        segments.add(range);
                    }
                }
                blocks.add(new BlockPlan(segments));
            }
            stripes.add(new StripePlan(blocks));
        }
        return new CodingPlan(code, CodingPlan.Strategy.FAC, constructor.name(), map.objectSize(), stripes);
    }

    /** An object of {@code size} bytes whole in the first data block of one stripe. */
    public CodingPlan singleBlock(long size) {
        List<BlockPlan> blocks = new ArrayList<>(code.dataBlocks());
        blocks.add(new BlockPlan(List.of(ByteRange.of(0, size))));
        for (int b = 1; b < code.dataBlocks(); b++) {
            blocks.add(new BlockPlan(List.of()));
        }
        return new CodingPlan(code, CodingPlan.Strategy.SINGLE_BLOCK, "single", size,
                List.of(new StripePlan(blocks)));
    }

    /** Fixed-size blocks over an object of {@code size} bytes. */
    public CodingPlan fixedBlocks(long size) {
        int k = code.dataBlocks();
        List<StripePlan> stripes = new ArrayList<>();
        long stripeData = fixedBlockSize * k;
        long position = 0;
        while (position < size) {
            long rest = size - position;
            long block = rest >= stripeData ? fixedBlockSize : (rest + k - 1) / k;
            List<BlockPlan> blocks = new ArrayList<>(k);
            for (int b = 0; b < k; b++) {
                long length = Math.min(block, size - position);
                blocks.add(new BlockPlan(length == 0 ? List.of() : List.of(ByteRange.of(position, length))));
                position += length;
            }
            stripes.add(new StripePlan(blocks));
        }
        return new CodingPlan(code, CodingPlan.Strategy.FIXED_BLOCKS, "fixed", size, stripes);
    }
}
