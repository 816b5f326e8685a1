package io.layoutbench.backend.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.StorageException;
import io.layoutbench.api.metrics.QueryMetrics;
import io.layoutbench.api.metrics.RequestKind;
import io.layoutbench.api.metrics.RequestMetrics;
import io.layoutbench.api.testing.OverwriteRace;
import io.layoutbench.api.testing.TestBytes;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Streamed reads of more parts than a stream keeps in flight ({@link S3Backend#STREAM_BUFFER_BYTES}: 6 parts of
 * {@link S3Options#MIN_PART_SIZE}), so that parts are fetched as earlier ones are handed over, against s3proxy.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class S3BackendStreamTest {

    private static final String KEY = "streamed.bin";
    private static final int PARTS = 11;
    private static final int SIZE = (int) (10 * S3Options.MIN_PART_SIZE + 1000);

    private S3Backend backend;

    @BeforeEach
    void open() {
        backend = new S3Backend(SharedS3Server.freshUri("stream"),
                SharedS3Server.options().withPartSize(S3Options.MIN_PART_SIZE), RequestMetrics.NONE);
    }

    @AfterEach
    void close() {
        backend.close();
    }

    @Test
    void aStreamOfMorePartsThanItKeepsInFlightHandsThemOverInOrder() {
        backend.put(KEY, TestBytes.stream(KEY, SIZE), SIZE);
        ByteRange range = ByteRange.between(100, SIZE - 100);
        QueryMetrics metrics = new QueryMetrics();
        List<Integer> pieces = new ArrayList<>();
        long[] offset = {range.offset()};

        try (ObjectBackend metered = backend.withMetrics(metrics)) {
            ObjectBackend.await(metered.streamRangeAsync(KEY, range, piece -> {
                TestBytes.verify(KEY, offset[0], piece);
                offset[0] += piece.remaining();
                pieces.add(piece.remaining());
            }));
        }

        assertThat(offset[0]).isEqualTo(range.end());
        assertThat(pieces).hasSize(PARTS).first().isEqualTo((int) S3Options.MIN_PART_SIZE);
        assertThat(metrics.snapshot().requests(RequestKind.RANGE_GET)).as("one GET per part").isEqualTo(PARTS);
        assertThat(metrics.snapshot().bytesReceived()).isEqualTo(range.length());
    }

    @Test
    void streamedReadersRacingOverwritesSeeOneVersionWholeOrFailSayingSo() throws Exception {
        backend.put(KEY, TestBytes.of("a", SIZE));
        ByteBuffer startOfA = ByteBuffer.wrap(TestBytes.of("a", 64));
        OverwriteRace.run(4, i -> backend.put(KEY, TestBytes.of(i % 2 == 0 ? "a" : "b", SIZE)), () -> {
            String[] version = {null};
            long[] offset = {0};
            try {
                ObjectBackend.await(backend.streamRangeAsync(KEY, ByteRange.of(0, SIZE), piece -> {
                    if (version[0] == null) {
                        version[0] = piece.duplicate().limit(64).equals(startOfA) ? "a" : "b";
                    }
                    TestBytes.verify(version[0], offset[0], piece);
                    offset[0] += piece.remaining();
                }));
            } catch (StorageException e) {
                assertThat(e).hasMessageContaining("overwritten while being read");
                return;
            }
            assertThat(offset[0]).isEqualTo(SIZE);
        });
    }

    @Test
    void aStreamThatRunsPastTheEndFailsOnceNamingTheSize() {
        backend.put(KEY, TestBytes.stream(KEY, SIZE), SIZE);
        QueryMetrics metrics = new QueryMetrics();
        ByteRange pastTheEnd = ByteRange.of(SIZE + 1, 8 * S3Options.MIN_PART_SIZE);

        try (ObjectBackend metered = backend.withMetrics(metrics)) {
            assertThatThrownBy(() -> ObjectBackend.await(metered.streamRangeAsync(KEY, pastTheEnd, piece -> { })))
                    .hasMessage("Cannot read range " + pastTheEnd + " of " + KEY + ": object is " + SIZE + " bytes");
        }
        assertThat(metrics.snapshot().requests(RequestKind.HEAD)).as("one HEAD for the size").isEqualTo(1);
    }
}
