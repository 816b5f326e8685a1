package io.layoutbench.api.backend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;

/** {@link ObjectBackend#inOnePiece}, how a read that cannot be streamed answers a streamed read. */
class StreamInOnePieceTest {

    @Test
    void handsTheReadOverAsOnePieceAndAnEmptyOneAsNone() {
        List<Integer> pieces = new ArrayList<>();

        ObjectBackend.inOnePiece(CompletableFuture.completedFuture(ByteBuffer.allocate(7)), p -> pieces.add(
                p.remaining())).join();
        ObjectBackend.inOnePiece(CompletableFuture.completedFuture(ByteBuffer.allocate(0)), p -> pieces.add(
                p.remaining())).join();

        assertThat(pieces).containsExactly(7);
    }

    @Test
    void cancellingTheStreamCancelsTheReadItWaitsFor() {
        CompletableFuture<ByteBuffer> read = new CompletableFuture<>();
        List<Integer> pieces = new ArrayList<>();

        CompletableFuture<Void> streamed = ObjectBackend.inOnePiece(read, p -> pieces.add(p.remaining()));
        streamed.cancel(false);

        assertThat(read).isCancelled();
        assertThat(pieces).isEmpty();
    }

    @Test
    void failsWithWhatTheReadOrTheConsumerFailedWith() {
        StorageException broken = new StorageException("connection reset");
        IllegalStateException refused = new IllegalStateException("enough");

        CompletableFuture<Void> failedRead = ObjectBackend.inOnePiece(CompletableFuture.failedFuture(broken),
                p -> { });
        CompletableFuture<Void> failedConsumer = ObjectBackend.inOnePiece(
                CompletableFuture.completedFuture(ByteBuffer.allocate(3)), p -> {
                    throw refused;
                });

        assertThatThrownBy(() -> ObjectBackend.await(failedRead)).isSameAs(broken);
        assertThatThrownBy(() -> ObjectBackend.await(failedConsumer)).isSameAs(refused);
    }
}
