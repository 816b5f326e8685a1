package io.layoutbench.layouts.l3;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Round trips of row-group metadata reads: a window at a time, or under a LIMIT the read-ahead that sends 1, 1, 2,
 * 4 ... reads a round (as many as read before), capped at the full window.
 */
class L3PlannerRoundsTest {

    @Test
    void aWindowAtATime() {
        assertThat(L3Planner.metadataRounds(0, 256, 256)).isZero();
        assertThat(L3Planner.metadataRounds(440, 256, 256)).isEqualTo(2);
        assertThat(L3Planner.metadataRounds(7, 1, 256)).as("paper mode under a LIMIT").isEqualTo(7);
    }

    @Test
    void theLimitReadAheadDoublesUpToTheFullWindow() {
        assertThat(L3Planner.metadataRounds(0, 0, 256)).isZero();
        assertThat(L3Planner.metadataRounds(1, 0, 256)).isEqualTo(1);
        assertThat(L3Planner.metadataRounds(2, 0, 256)).isEqualTo(2);
        assertThat(L3Planner.metadataRounds(4, 0, 256)).as("1, 1, 2").isEqualTo(3);
        assertThat(L3Planner.metadataRounds(6, 0, 256)).as("1, 1, 2, 4").isEqualTo(4);
        assertThat(L3Planner.metadataRounds(8, 0, 256)).isEqualTo(4);
        assertThat(L3Planner.metadataRounds(100, 0, 4)).as("1, 1, 2, then 4 a round").isEqualTo(27);
    }
}
