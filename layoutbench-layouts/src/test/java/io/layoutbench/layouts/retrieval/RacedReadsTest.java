package io.layoutbench.layouts.retrieval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.layout.RetrievalMode;
import io.layoutbench.api.metrics.QueryMetrics;
import io.layoutbench.api.metrics.RequestKind;
import io.layoutbench.api.metrics.RequestMetrics;
import io.layoutbench.api.network.HedgeDelay;
import io.layoutbench.api.network.NetworkProfiles;
import io.layoutbench.backend.memory.MemoryBackend;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class RacedReadsTest {

    private static final QueryOptions T3 = QueryOptions.defaults().withNetwork(NetworkProfiles.T3_MEDIUM);
    private static final ByteRange FOOTER = ByteRange.of(1_000, 3_000);

    private final ControlledBackend store = new ControlledBackend(70_000);
    private final QueryMetrics metrics = new QueryMetrics();

    @Test
    void aRangedReadGoesAsManyTimesAsAReadAloneIsRacedAndTheCopiesAreCountedAsHedged() {
        int copies = HedgeDelay.racedCopiesAlone(NetworkProfiles.T3_MEDIUM, FOOTER.length());
        assertThat(copies).isGreaterThan(1);

        RacedReads.of(store, T3, metrics).readRangeAsync("a", FOOTER);

        assertThat(store.calls).hasSize(copies).allSatisfy(call -> assertThat(call.range()).isEqualTo(FOOTER));
        assertThat(metrics.snapshot().hedgedRequests()).isEqualTo(copies - 1);
    }

    @Test
    void theFirstCopyWhoseResponseStartsWinsAndTheOthersAreCancelledBeforeTheirBytes() {
        CompletableFuture<ByteBuffer> read = RacedReads.of(store, T3, metrics).readRangeAsync("a", FOOTER);

        store.firstByte(1);

        for (int i = 0; i < store.calls.size(); i++) {
            assertThat(store.calls.get(i).answer().isCancelled()).as("copy %d", i).isEqualTo(i != 1);
        }
        assertThat(read).isNotDone();
        store.answer(1);
        assertThat(read.join()).isEqualTo(store.slice(1_000, 3_000));
    }

    @Test
    void aFirstByteHeardWhileSendingStopsTheCopiesNotYetSent() {
        store.firstByteOnCall = true;

        CompletableFuture<ByteBuffer> read = RacedReads.of(store, T3, metrics).readRangeAsync("a", FOOTER);

        assertThat(store.calls).hasSize(1);
        assertThat(metrics.snapshot().hedgedRequests()).isZero();
        store.answer(0);
        assertThat(read.join()).isEqualTo(store.slice(1_000, 3_000));
    }

    @Test
    void aCopyThatFailsLeavesTheRaceToTheOthersAndTheReadFailsOnlyWhenAllHaveWithTheFirstFailure() {
        CompletableFuture<ByteBuffer> survives = RacedReads.of(store, T3, metrics).readRangeAsync("a", FOOTER);
        int copies = store.calls.size();
        store.calls.get(0).answer().completeExceptionally(new UncheckedIOException(new IOException("reset")));
        assertThat(survives).isNotDone();
        store.answer(copies - 1);
        assertThat(survives.join()).isEqualTo(store.slice(1_000, 3_000));

        CompletableFuture<ByteBuffer> fails = RacedReads.of(store, T3, metrics).readRangeAsync("a", FOOTER);
        IllegalStateException first = new IllegalStateException("first: 503 Slow Down on a of the store");
        store.calls.get(copies).answer().completeExceptionally(first);
        for (int i = copies + 1; i < store.calls.size(); i++) {
            store.calls.get(i).answer().completeExceptionally(new IllegalStateException("later"));
        }
        assertThatThrownBy(fails::join).isInstanceOf(CompletionException.class).hasCause(first);
    }

    @Test
    void aCopyRefusedAsItIsSentLeavesTheRaceToTheCopiesAfterIt() {
        int copies = HedgeDelay.racedCopiesAlone(NetworkProfiles.T3_MEDIUM, FOOTER.length());
        store.refuseNextCall = new IllegalStateException("connection pool closed");

        CompletableFuture<ByteBuffer> read = RacedReads.of(store, T3, metrics).readRangeAsync("a", FOOTER);

        assertThat(store.calls).as("the copies after the refused one").hasSize(copies - 1);
        assertThat(read).isNotDone();
        store.answer(0);
        assertThat(read.join()).isEqualTo(store.slice(1_000, 3_000));
    }

    @Test
    void aWinnerThatFailsAfterItsFirstByteFailsTheRead() {
        CompletableFuture<ByteBuffer> read = RacedReads.of(store, T3, metrics).readRangeAsync("a", FOOTER);
        store.firstByte(0);
        IllegalStateException reset = new IllegalStateException("connection reset in the body of a");

        store.calls.get(0).answer().completeExceptionally(reset);

        assertThatThrownBy(read::join).isInstanceOf(CompletionException.class).hasCause(reset);
    }

    @Test
    void cancellingTheReadCancelsEveryCopy() {
        CompletableFuture<ByteBuffer> read = RacedReads.of(store, T3, metrics).readRangeAsync("a", FOOTER);

        read.cancel(false);

        assertThat(store.calls).allSatisfy(call -> assertThat(call.answer().isCancelled()).isTrue());
    }

    @Test
    void wholeReadsAndOtherMetricsViewsAreNotRaced() {
        ObjectBackend raced = RacedReads.of(store, T3, metrics);

        assertThat(raced.readAllAsync("a").join().remaining()).isEqualTo(70_000);
        raced.withMetrics(RequestMetrics.NONE).readRangeAsync("a", FOOTER);

        // A raced read would have gone as copies through the store's first-byte reads, which record their calls.
        assertThat(store.calls).as("the ranged read of the other view, once").hasSize(1);
        assertThat(metrics.snapshot().hedgedRequests()).isZero();
    }

    @Test
    void aBackendIsLeftAsItIsWithoutFirstBytesHedgingOrJitter() {
        MemoryBackend plain = new MemoryBackend();

        assertThat(RacedReads.of(plain, T3, metrics)).isSameAs(plain);
        assertThat(RacedReads.of(store, T3.withMode(RetrievalMode.PAPER), metrics)).isSameAs(store);
        assertThat(RacedReads.of(store, T3.withHedging(false), metrics)).isSameAs(store);
        assertThat(RacedReads.of(store, QueryOptions.defaults().withNetwork(
                NetworkProfiles.T3_MEDIUM.withLatencyJitter(0)), metrics)).isSameAs(store);
        assertThat(RacedReads.of(store, QueryOptions.defaults().withNetwork(NetworkProfiles.NONE), metrics))
                .isSameAs(store);
    }

    @Test
    void aReadOverTheBandwidthDelayProductIsSentOnce() {
        RacedReads.of(store, T3, metrics).readRangeAsync("a", ByteRange.of(0, 25_000_000));

        assertThat(store.calls).hasSize(1);
    }

    @Test
    void aStoreThatRacesItsOwnReadsBelowItIsAskedForItsRacedView() {
        ObjectBackend racedView = new MemoryBackend();
        RacingStore fac = new RacingStore(new MemoryBackend(), racedView, null);

        assertThat(RacedReads.of(fac, T3, metrics)).isSameAs(racedView);
        assertThat(fac.network).isEqualTo(NetworkProfiles.T3_MEDIUM);
        assertThat(fac.metrics).isSameAs(metrics);
        assertThat(RacedReads.of(fac, T3.withHedging(false), metrics)).as("not hedging").isSameAs(fac);
    }

    @Test
    void firstRacesReadsOfTheSameBytesFromDifferentPlacesAndKeepsTheFirstToStart() {
        ControlledBackend other = new ControlledBackend(70_000);   // the same object, on another node
        List<Function<Runnable, CompletableFuture<ByteBuffer>>> replicas = List.of(
                onFirstByte -> other.readRangeAsync("a", FOOTER, onFirstByte),
                onFirstByte -> store.readRangeAsync("a", FOOTER, onFirstByte));

        CompletableFuture<ByteBuffer> read = RacedReads.first(replicas, metrics, RequestKind.GET);

        assertThat(other.calls).hasSize(1);
        assertThat(store.calls).hasSize(1);
        assertThat(metrics.snapshot().hedgedRequests()).isEqualTo(1);
        store.firstByte(0);
        assertThat(other.calls.get(0).answer().isCancelled()).isTrue();
        store.answer(0);
        assertThat(read.join()).isEqualTo(store.slice(1_000, 3_000));
        assertThatThrownBy(() -> RacedReads.first(List.of(), metrics, RequestKind.GET))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least one copy");
    }
}
