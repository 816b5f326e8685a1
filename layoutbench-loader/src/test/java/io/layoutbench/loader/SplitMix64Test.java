package io.layoutbench.loader;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The generator behind every shuffle is pinned: a saved state resumes on any later version only if the same seed
 * still gives the same draws. A change here breaks every saved loader state.
 */
class SplitMix64Test {

    @Test
    void theFirstDrawOfSeedZeroIsSplitMix64s() {
        assertThat(new SplitMix64(0).nextLong()).isEqualTo(0xe220a8397b1dcdafL);
    }

    @Test
    void theDrawsOfAMixedSeedArePinned() {
        SplitMix64 random = SplitMix64.of(42, 3, 1);
        int[] draws = new int[8];
        for (int i = 0; i < draws.length; i++) {
            draws[i] = random.nextInt(1000);
        }
        assertThat(draws).containsExactly(873, 730, 209, 217, 656, 691, 604, 517);
    }

    @Test
    void aShuffleBufferReplayedOnPositionsHoldsWhatTheLiveOneHolds() {
        for (int capacity : new int[] {0, 1, 7, 64}) {
            ShuffleBuffer<Long> live = new ShuffleBuffer<>(capacity, 200, SplitMix64.of(5, capacity));
            for (int step = 0; step < 120; step++) {
                while (live.needsInput()) {
                    live.add(live.nextInput(), live.nextInput());
                }
                live.take();
            }
            ShuffleBuffer<Long> replayed = ShuffleBuffer.replay(capacity, 200, SplitMix64.of(5, capacity), 120);
            assertThat(replayed.heldPositions()).containsExactly(live.heldPositions());
            assertThat(replayed.nextInput()).isEqualTo(live.nextInput());
        }
    }
}
