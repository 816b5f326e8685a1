package io.layoutbench.api.network;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class VirtualClockTest {

    private final VirtualClock clock = new VirtualClock();
    private final List<String> ran = new ArrayList<>();

    @Test
    void runsDueTasksInTimeOrderEachAtItsOwnTime() {
        clock.schedule(30, () -> ran.add("c@" + clock.nanoTime()));
        clock.schedule(10, () -> ran.add("a@" + clock.nanoTime()));
        clock.schedule(20, () -> ran.add("b@" + clock.nanoTime()));
        clock.schedule(20, () -> ran.add("b2@" + clock.nanoTime()));

        clock.advanceTo(25);

        assertThat(ran).containsExactly("a@10", "b@20", "b2@20");
        assertThat(clock.nanoTime()).isEqualTo(25);
        assertThat(clock.pendingTasks()).isEqualTo(1);
        assertThat(clock.nextTaskNanos()).hasValue(30);
    }

    @Test
    void tasksScheduledWhileAdvancingRunIfDueByTheTarget() {
        clock.schedule(10, () -> {
            ran.add("first@" + clock.nanoTime());
            clock.schedule(clock.nanoTime() + 5, () -> ran.add("second@" + clock.nanoTime()));
            clock.schedule(clock.nanoTime() + 500, () -> ran.add("late"));
        });

        clock.advanceBy(Duration.ofNanos(100));

        assertThat(ran).containsExactly("first@10", "second@15");
    }

    @Test
    void aTaskScheduledInThePastRunsOnTheNextAdvanceWithoutMovingTime() {
        clock.advanceTo(100);
        clock.schedule(50, () -> ran.add("past@" + clock.nanoTime()));
        assertThat(ran).isEmpty();

        clock.runDueTasks();

        assertThat(ran).containsExactly("past@100");
    }

    @Test
    void advanceUntilIdleRunsEverything() {
        clock.schedule(7, () -> clock.schedule(1_000, () -> ran.add("end")));

        assertThat(clock.advanceUntilIdle()).isEqualTo(1_000);
        assertThat(ran).containsExactly("end");
        assertThat(clock.nextTaskNanos()).isEmpty();
    }

    @Test
    void refusesToGoBackOrToAdvanceFromInsideATask() {
        clock.advanceTo(10);
        assertThatThrownBy(() -> clock.advanceTo(9)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Cannot move a virtual clock back from 10 ns to 9 ns");
        assertThatThrownBy(() -> clock.advanceBy(-1)).isInstanceOf(IllegalArgumentException.class);

        List<Throwable> failures = new ArrayList<>();
        clock.schedule(11, () -> {
            try {
                clock.advanceBy(1);
            } catch (IllegalStateException e) {
                failures.add(e);
            }
        });
        clock.advanceTo(20);
        assertThat(failures).singleElement().extracting(Throwable::getMessage).asString()
                .startsWith("A virtual clock cannot be advanced from inside one of its tasks");
    }

    @Test
    void runsCallbacksOnTheAdvancingThread() {
        clock.callbackExecutor().execute(() -> ran.add(Thread.currentThread().getName()));
        assertThat(ran).containsExactly(Thread.currentThread().getName());
    }
}
