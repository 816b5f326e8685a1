package io.layoutbench.api.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

class QueryMetricsTest {

    @Test
    void countsRequestsBytesAndTimeOnTheInjectedClock() {
        AtomicLong now = new AtomicLong(1_000);
        QueryMetrics metrics = new QueryMetrics(now::get);

        metrics.start();
        metrics.onRequestStarted(RequestKind.RANGE_GET);
        metrics.onRequestStarted(RequestKind.RANGE_GET);
        metrics.onRequestStarted(RequestKind.PUT);
        metrics.onRetry(RequestKind.RANGE_GET);
        metrics.onFirstByte(RequestKind.RANGE_GET, 30);
        metrics.onFirstByte(RequestKind.RANGE_GET, 50);
        metrics.onBytesReceived(RequestKind.RANGE_GET, 700);
        metrics.onBytesSent(RequestKind.PUT, 10);
        metrics.onHedgedRequest(RequestKind.RANGE_GET);
        now.addAndGet(5_000);
        metrics.stop();
        now.addAndGet(99_000);

        MetricsSnapshot s = metrics.snapshot();
        assertThat(s.requests(RequestKind.RANGE_GET)).isEqualTo(2);
        assertThat(s.totalRequests()).isEqualTo(3);
        assertThat(s.getClassRequests()).isEqualTo(2);
        assertThat(s.putClassRequests()).isEqualTo(1);
        assertThat(s.totalRetries()).isEqualTo(1);
        assertThat(s.bytesReceived()).isEqualTo(700);
        assertThat(s.bytesSent()).isEqualTo(10);
        assertThat(s.meanFirstByte()).isEqualTo(Duration.ofNanos(40));
        assertThat(s.maxFirstByteNanos()).isEqualTo(50);
        assertThat(s.hedgedRequests()).isEqualTo(1);
        assertThat(s.wallTime()).isEqualTo(Duration.ofNanos(5_000));
    }

    @Test
    void stopBeforeStartIsAnError() {
        assertThatThrownBy(() -> new QueryMetrics().stop()).hasMessageContaining("before start()");
    }
}
