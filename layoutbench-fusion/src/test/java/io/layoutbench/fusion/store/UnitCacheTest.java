package io.layoutbench.fusion.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.fusion.codec.CodeParameters;
import io.layoutbench.fusion.coding.CodingPlan;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;

import org.junit.jupiter.api.Test;

class UnitCacheTest {

    private static final FacManifest.Block BLOCK = new FacManifest.Block(0, 2, 5, 1 << 20, 0, new int[16]);

    /** A one-stripe manifest of {@code key} at {@code generation}: all the cache looks at. */
    private static FacManifest manifest(String key, String generation) {
        List<FacManifest.Block> blocks = new ArrayList<>();
        for (int b = 0; b < 9; b++) {
            blocks.add(new FacManifest.Block(0, b, b, 1 << 20, 0, new int[16]));
        }
        return new FacManifest(key, generation, 6 << 20, "backblaze-rs", CodeParameters.rs(9, 6), 1 << 16, 9,
                CodingPlan.Strategy.FAC, "fac", List.of(new FacManifest.Stripe(0, 1 << 20, blocks)),
                List.of(new FacManifest.Segment(0, 6 << 20, 0, 0, 0)));
    }

    @Test
    void aUnitIsClaimedOnceAndServedToEveryReaderOfItWhileAndAfterItIsRead() {
        UnitCache cache = new UnitCache(1 << 20);
        FacManifest manifest = manifest("a.parquet", "g1");

        UnitCache.Claim first = cache.claim(manifest, BLOCK, 3, 5);
        assertThat(first.mustRead()).isTrue();
        assertThat(first.firstToRead()).isEqualTo(3);
        assertThat(first.lastToRead()).isEqualTo(5);

        UnitCache.Claim beside = cache.claim(manifest, BLOCK, 4, 6);
        assertThat(beside.firstToRead()).as("only unit 6 is nobody's yet").isEqualTo(6);
        assertThat(beside.lastToRead()).isEqualTo(6);
        assertThat(beside.owns(4)).isFalse();
        assertThat(beside.units().get(0).isDone()).isFalse();

        cache.complete(first, manifest, BLOCK, 4, ByteBuffer.wrap(new byte[] {4}));
        assertThat(beside.units().get(0).join().get(0)).isEqualTo((byte) 4);
        assertThat(cache.claim(manifest, BLOCK, 4, 4).mustRead()).isFalse();
        assertThat(cache.hits()).isEqualTo(3);
        assertThat(cache.misses()).isEqualTo(4);
    }

    @Test
    void onlyTheClaimThatRegisteredAUnitCompletesOrFailsIt() {
        UnitCache cache = new UnitCache(1 << 20);
        FacManifest manifest = manifest("a.parquet", "g1");
        UnitCache.Claim owner = cache.claim(manifest, BLOCK, 1, 1);
        cache.claim(manifest, BLOCK, 0, 0);
        UnitCache.Claim spanning = cache.claim(manifest, BLOCK, 0, 2);   // registers unit 2 only

        assertThatThrownBy(() -> cache.fail(spanning, manifest, BLOCK, 1, new IllegalStateException("node down")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not one this claim registered");
        cache.complete(owner, manifest, BLOCK, 1, ByteBuffer.allocate(100));
        cache.complete(spanning, manifest, BLOCK, 2, ByteBuffer.allocate(30));

        assertThat(cache.cachedBytes()).as("each unit counted once, at what it holds").isEqualTo(130);
        assertThat(spanning.unit(1).join().capacity()).isEqualTo(100);
    }

    @Test
    void aFailedUnitFailsItsWaitersAndIsReadAgainByTheNext() {
        UnitCache cache = new UnitCache(1 << 20);
        FacManifest manifest = manifest("a.parquet", "g1");
        UnitCache.Claim claim = cache.claim(manifest, BLOCK, 0, 0);
        UnitCache.Claim waiter = cache.claim(manifest, BLOCK, 0, 0);

        cache.fail(claim, manifest, BLOCK, 0, new IllegalStateException("node 5 is down"));

        assertThatThrownBy(() -> waiter.units().get(0).join()).isInstanceOf(CompletionException.class)
                .hasMessageContaining("node 5 is down");
        assertThat(cache.claim(manifest, BLOCK, 0, 0).mustRead()).isTrue();
        assertThat(cache.cachedBytes()).isZero();
    }

    @Test
    void anotherGenerationOfTheObjectNeverMeetsTheOldUnits() {
        UnitCache cache = new UnitCache(1 << 20);
        FacManifest old = manifest("a.parquet", "g1");
        UnitCache.Claim claim = cache.claim(old, BLOCK, 0, 0);
        cache.complete(claim, old, BLOCK, 0, ByteBuffer.wrap(new byte[] {1}));

        assertThat(cache.claim(manifest("a.parquet", "g2"), BLOCK, 0, 0).mustRead()).isTrue();
    }

    @Test
    void completedUnitsBeyondTheCapacityAreEvictedLeastRecentlyUsedFirst() {
        UnitCache cache = new UnitCache(3_000);
        FacManifest manifest = manifest("a.parquet", "g1");
        for (int u = 0; u < 3; u++) {
            cache.complete(cache.claim(manifest, BLOCK, u, u), manifest, BLOCK, u, ByteBuffer.allocate(1_000));
        }
        cache.claim(manifest, BLOCK, 0, 0);   // unit 0 used again: unit 1 is now the least recently used
        UnitCache.Claim pending = cache.claim(manifest, BLOCK, 9, 9);   // being read: never evicted

        cache.complete(cache.claim(manifest, BLOCK, 3, 3), manifest, BLOCK, 3, ByteBuffer.allocate(1_000));

        assertThat(cache.cachedBytes()).isEqualTo(3_000);
        assertThat(cache.claim(manifest, BLOCK, 1, 1).mustRead()).as("evicted").isTrue();
        assertThat(cache.claim(manifest, BLOCK, 0, 0).mustRead()).isFalse();
        cache.complete(pending, manifest, BLOCK, 9, ByteBuffer.allocate(10));
        assertThat(pending.units().get(0).join().capacity()).isEqualTo(10);
    }
}
