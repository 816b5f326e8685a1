package io.layoutbench.api.layout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.metrics.RequestKind;

import java.util.List;

import org.junit.jupiter.api.Test;

class RetrievalPlanTest {

    private static final PlannedRequest FOOTER = get("part-0", 65_536);
    private static final PlannedRequest BLOB = get("part-0", 40_000_000);
    private static final PlannedRequest LABEL = get("part-0", 9_000);
    private static final PlannedRequest IMAGE = get("img-7", 110_000);

    @Test
    void tasksAreSentAsTheirRequestsInOrder() {
        RetrievalPlan plan = RetrievalPlan.ofTasks(List.of(FOOTER), List.of(List.of(BLOB, LABEL), List.of(IMAGE)), 3,
                40_119_000, 1);

        assertThat(plan.dataRequests()).containsExactly(BLOB, LABEL, IMAGE);
        assertThat(plan.requestsPerTask()).containsExactly(2, 1);
        assertThat(plan.dataTasks()).containsExactly(List.of(BLOB, LABEL), List.of(IMAGE));
        assertThat(plan.totalRequests()).isEqualTo(4);
        assertThat(plan.withoutRacedReads().dataTasks()).isEqualTo(plan.dataTasks());
        assertThat(plan.withoutRacedReads().racedReads()).isFalse();
    }

    @Test
    void aPlanOfOneRequestPerTaskSaysNoTasks() {
        RetrievalPlan plan = RetrievalPlan.ofTasks(List.of(), List.of(List.of(IMAGE), List.of(LABEL)), 2, 119_000, 0);

        assertThat(plan.requestsPerTask()).isEmpty();
        assertThat(plan).isEqualTo(new RetrievalPlan(List.of(), List.of(IMAGE, LABEL), 2, 119_000));
        assertThat(plan.dataTasks()).containsExactly(List.of(IMAGE), List.of(LABEL));
        assertThat(new RetrievalPlan(List.of(), List.of(IMAGE, LABEL), 2, 119_000, 0, true, List.of(1, 1)))
                .as("one way to say a request each").isEqualTo(plan);
    }

    @Test
    void tasksMustSendThePlansDataRequests() {
        List<PlannedRequest> data = List.of(BLOB, LABEL, IMAGE);

        assertThatThrownBy(() -> new RetrievalPlan(List.of(), data, 3, 0, 0, true, List.of(2, -1, 2)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("requestsPerTask[1] is -1: a task sends 0 requests or more");
        assertThatThrownBy(() -> new RetrievalPlan(List.of(), data, 3, 0, 0, true, List.of(2)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("requestsPerTask sends 2 requests, but the plan has 3 data requests");
        assertThatThrownBy(() -> new RetrievalPlan(List.of(), data, 3, 0, 0, true, null))
                .isInstanceOf(NullPointerException.class).hasMessage("requestsPerTask is null");
        assertThatThrownBy(() -> RetrievalPlan.ofTasks(List.of(), java.util.Arrays.asList(List.of(IMAGE), null), 1,
                0, 0)).isInstanceOf(NullPointerException.class).hasMessage("tasks[1] is null");
    }

    @Test
    void aTaskMaySendNothingWhenItsSamplesAreInTheMetadata() {
        RetrievalPlan metadataOnly = RetrievalPlan.ofTasks(List.of(FOOTER), List.of(List.of(), List.of()), 7, 0, 1);

        assertThat(metadataOnly.dataRequests()).isEmpty();
        assertThat(metadataOnly.requestsPerTask()).containsExactly(0, 0);
        assertThat(metadataOnly.dataTasks()).containsExactly(List.of(), List.of());
    }

    private static PlannedRequest get(String key, long bytes) {
        return new PlannedRequest(RequestKind.RANGE_GET, key, ByteRange.of(0, bytes));
    }
}
