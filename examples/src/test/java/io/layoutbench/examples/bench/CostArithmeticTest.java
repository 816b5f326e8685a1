package io.layoutbench.examples.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.layoutbench.api.cost.CostBreakdown;
import io.layoutbench.api.cost.CostModel;
import io.layoutbench.api.cost.Prices;
import io.layoutbench.api.network.NetworkProfiles;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

/** The cost the reports print, worked by hand: C = $0.09/GB x D + request prices + hourly rate x T. */
class CostArithmeticTest {

    private static final double CENT_FRACTION = 1e-12;

    @Test
    void transferRequestsAndComputeAddUp() {
        CostModel model = new CostModel(Prices.s3Standard(), NetworkProfiles.get("t3.medium"));

        // 2.5 GB, 12,000 GETs, 3,000 PUTs, 30 minutes on a t3.medium.
        CostBreakdown cost = model.cost(2_500_000_000L, 12_000, 3_000, Duration.ofMinutes(30));

        assertThat(cost.transferUsd()).isCloseTo(0.225, within(CENT_FRACTION));       // 2.5 x 0.09
        assertThat(cost.requestUsd()).isCloseTo(0.0198, within(CENT_FRACTION));       // 12 x 0.0004 + 3 x 0.005
        assertThat(cost.computeUsd()).isCloseTo(0.0208, within(CENT_FRACTION));       // 0.0416 x 0.5
        assertThat(cost.total()).isCloseTo(0.2656, within(CENT_FRACTION));
        assertThat(cost.paperTotal()).isCloseTo(0.2458, within(CENT_FRACTION));
    }

    @Test
    void thePapersTable5L2RowIsTransferPlusCompute() {
        // The paper's medium/t3.medium L2 row: D such that transfer is $0.795, and T such that compute is $0.005.
        CostModel model = new CostModel(Prices.s3Standard(), NetworkProfiles.get("t3.medium"));
        long bytes = 8_833_333_333L;                                          // 0.795 / 0.09 GB
        Duration time = Duration.ofNanos((long) (0.005 / 0.0416 * 3600 * 1e9));   // 432.7 s

        CostBreakdown cost = model.cost(bytes, 0, 0, time);

        assertThat(cost.transferUsd()).isCloseTo(0.795, within(1e-9));
        assertThat(cost.computeUsd()).isCloseTo(0.005, within(1e-9));
        assertThat(cost.paperTotal()).isCloseTo(0.800, within(1e-9));
    }

    @Test
    void profileNoneCostsNoComputeAndSameRegionNoTransfer() {
        CostModel none = new CostModel(Prices.sameRegion(), NetworkProfiles.NONE);

        CostBreakdown cost = none.cost(1_000_000_000L, 1_000, 0, Duration.ofHours(2));

        assertThat(cost.transferUsd()).isZero();
        assertThat(cost.computeUsd()).isZero();
        assertThat(cost.requestUsd()).isCloseTo(0.0004, within(CENT_FRACTION));
    }

    @Test
    void ingestRowRepricesComputeForAnotherProfile() {
        IngestRow row = new IngestRow("l2", "imagenet-tiny-seed42", "synthetic", "file", "p", "", "none", false,
                10, 100, 120, 3, 1800.0, 120, 4, 4, 0.00002, 0.0, 0.00002, 0.0, 1, 2, 3, 4);

        IngestRow reused = row.asReused("file", "t3.medium", 0.0416);

        assertThat(reused.reused()).isTrue();
        assertThat(reused.computeUsd()).isCloseTo(0.0208, within(CENT_FRACTION));
        assertThat(reused.costUsd()).isCloseTo(0.02082, within(CENT_FRACTION));
        assertThat(List.of(reused.peakHeapBytes(), reused.peakDirectBytes(), reused.peakMappedBytes(),
                reused.peakRssBytes())).as("what the ingest used").containsExactly(1L, 2L, 3L, 4L);
    }
}
