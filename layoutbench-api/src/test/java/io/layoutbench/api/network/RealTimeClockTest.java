package io.layoutbench.api.network;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

class RealTimeClockTest {

    @Test
    void runsATaskNoEarlierThanItsTime() throws Exception {
        try (RealTimeClock clock = new RealTimeClock()) {
            long at = clock.nanoTime() + 2_000_000;
            CompletableFuture<Long> ranAt = new CompletableFuture<>();

            clock.schedule(at, () -> ranAt.complete(System.nanoTime()));

            assertThat(ranAt.get(10, TimeUnit.SECONDS)).isGreaterThanOrEqualTo(at);
        }
    }

    @Test
    void runsCallbacksOffTheTimerThread() throws Exception {
        try (RealTimeClock clock = new RealTimeClock()) {
            CompletableFuture<String> thread = new CompletableFuture<>();
            clock.schedule(clock.nanoTime(), () -> clock.callbackExecutor()
                    .execute(() -> thread.complete(Thread.currentThread().getName())));

            assertThat(thread.get(10, TimeUnit.SECONDS)).startsWith("simulation-callbacks-");
        }
    }

    @Test
    void refusesTasksOnceClosed() {
        RealTimeClock clock = new RealTimeClock();
        clock.close();

        assertThatThrownBy(() -> clock.schedule(clock.nanoTime(), () -> { }))
                .isInstanceOf(RejectedExecutionException.class);
    }
}
