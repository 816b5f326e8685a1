package io.layoutbench.fusion.coding;

import static org.assertj.core.api.Assertions.assertThat;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.fusion.FusionTestFiles;
import io.layoutbench.fusion.codec.CodeParameters;
import io.layoutbench.fusion.stripe.StripeConstructors;

import java.util.List;

import org.junit.jupiter.api.Test;

class CodingPlannerTest {

    private static final CodeParameters RS96 = CodeParameters.rs(9, 6);

    @Test
    void facKeepsEveryRegionInOneDataBlock() {
        ChunkMap map = ParquetChunkMaps.read(ObjectSource.of(FusionTestFiles.l3Table(60, 256 << 10, 32 << 10)));
        CodingPlanner planner = new CodingPlanner(RS96, StripeConstructors.facRefined(), 1.0, 64 << 10);

        CodingPlan plan = planner.plan(map);

        assertThat(plan.strategy()).isEqualTo(CodingPlan.Strategy.FAC);
        assertThat(plan.stripes().size()).isGreaterThan(1);
        assertThat(plan.splitRegions(map, false)).isZero();
        assertThat(planner.fixedBlocks(map.objectSize()).splitRegions(map, true)).isPositive();
    }

    @Test
    void overTheBudgetTheObjectGetsFixedBlocks() {
        ChunkMap map = ParquetChunkMaps.read(ObjectSource.of(FusionTestFiles.l3Table(10, 8 << 20, 64 << 10)));
        CodingPlan fac = new CodingPlanner(RS96, StripeConstructors.fac(), 100, 1 << 20).plan(map);
        assertThat(fac.strategy()).isEqualTo(CodingPlan.Strategy.FAC);
        assertThat(fac.extraOverhead()).as("one row group: the blob chunk dwarfs the rest").isGreaterThan(1);

        CodingPlan plan = new CodingPlanner(RS96, StripeConstructors.fac(), 0.05, 1 << 20).plan(map);

        assertThat(plan.strategy()).isEqualTo(CodingPlan.Strategy.FIXED_BLOCKS);
        assertThat(plan.extraOverhead()).isLessThan(0.05);
    }

    @Test
    void fixedBlocksFillFullStripesAndShrinkTheLast() {
        CodingPlanner planner = new CodingPlanner(RS96, StripeConstructors.fac(), 0.05, 100);

        CodingPlan plan = planner.fixedBlocks(1_063);

        assertThat(plan.stripes()).hasSize(2);
        assertThat(plan.stripes().get(0).dataBlocks()).allMatch(b -> b.length() == 100);
        List<BlockPlan> last = plan.stripes().get(1).dataBlocks();
        assertThat(last.stream().mapToLong(BlockPlan::length).toArray()).containsExactly(78, 78, 78, 78, 78, 73);
        assertThat(last.get(0).segments()).containsExactly(ByteRange.of(600, 78));
        assertThat(planner.fixedBlocks(0).stripes()).isEmpty();
        assertThat(planner.fixedBlocks(3).stripes().get(0).dataBlocks().stream().mapToLong(BlockPlan::length))
                .containsExactly(1L, 1L, 1L, 0L, 0L, 0L);
    }

    @Test
    void objectsUpToTheSingleBlockLimitGoWholeIntoTheFirstDataBlock() {
        ChunkMap parquet = ParquetChunkMaps.read(ObjectSource.of(FusionTestFiles.l3Table(6, 16 << 10, 4 << 10)));
        long size = parquet.objectSize();
        CodingPlanner atLimit = new CodingPlanner(RS96, StripeConstructors.facRefined(), 0.05, 1 << 10, size);

        CodingPlan plan = atLimit.plan(parquet);

        // At the limit, and past the fixed block size: one stripe, the object whole in block 0, the others empty.
        assertThat(plan.strategy()).isEqualTo(CodingPlan.Strategy.SINGLE_BLOCK);
        assertThat(plan.stripes()).hasSize(1);
        List<BlockPlan> blocks = plan.stripes().get(0).dataBlocks();
        assertThat(blocks.get(0).segments()).containsExactly(ByteRange.of(0, size));
        assertThat(blocks.subList(1, 6)).allMatch(b -> b.length() == 0);
        assertThat(plan.parityBytes()).isEqualTo(3 * size);
        assertThat(plan.splitRegions(parquet, false)).isZero();

        CodingPlanner belowIt = new CodingPlanner(RS96, StripeConstructors.facRefined(), 0.05, 1 << 10, size - 1);
        assertThat(belowIt.plan(parquet).strategy()).isNotEqualTo(CodingPlan.Strategy.SINGLE_BLOCK);
        assertThat(atLimit.plan(ChunkMap.opaque(0, "empty")).stripes()).as("an empty object has no stripe").isEmpty();
        assertThat(new CodingPlanner(RS96, StripeConstructors.facRefined(), 0.05, 1 << 10).plan(parquet).strategy())
                .as("no limit by default").isNotEqualTo(CodingPlan.Strategy.SINGLE_BLOCK);
    }
}
