package io.layoutbench.api.backend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.layoutbench.api.metrics.MetricsSnapshot;
import io.layoutbench.api.metrics.QueryMetrics;
import io.layoutbench.api.metrics.RequestKind;
import io.layoutbench.api.testing.OverwriteRace;
import io.layoutbench.api.testing.TestBytes;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The behaviour every {@link ObjectBackend} promises. Each backend's test extends this class and says how to make
 * a fresh, empty backend; backend-specific tests go in the subclass.
 *
 * <pre>{@code
 * class MemoryBackendTest extends ObjectBackendContractTest {
 *     @Override
 *     protected ObjectBackend newBackend() {
 *         return new MemoryBackend();
 *     }
 * }
 * }</pre>
 *
 * <p>Object content comes from {@link TestBytes}, seeded by the key, so every byte read is checked against its
 * offset. The suite is meant to run in a few seconds and never sleeps.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
public abstract class ObjectBackendContractTest {

    /** The backend under test, from {@link #newBackend()}; closed after each test. */
    protected ObjectBackend backend;

    @TempDir
    Path contractScratch;

    /** A new, empty backend. Called once before each test. */
    protected abstract ObjectBackend newBackend();

    /**
     * Whether a read of an object of several MiB sees one version when it is replaced by one of the same size
     * meanwhile. Every backend should; a backend that documents otherwise says false, and the test of it is skipped.
     */
    protected boolean readsOfLargeObjectsSeeOneVersion() {
        return true;
    }

    /** Size of the object in {@link #largeObjectsReadInRangesAndWhole()}; lower it for slow backends. */
    protected int largeObjectSize() {
        return 24 << 20;
    }

    @BeforeEach
    void openBackend() {
        backend = newBackend();
    }

    @AfterEach
    void closeBackend() {
        if (backend != null) {
            backend.close();
        }
    }

    /** Stores {@code size} bytes of {@link TestBytes} content seeded by {@code key}. */
    protected void putTestObject(String key, int size) {
        backend.put(key, TestBytes.of(key, size));
    }

    // ---- round trips and ranges --------------------------------------------------------------------------

    @Test
    void putThenReadAllRoundTrips() {
        putTestObject("round/trip.bin", 10_000);

        ByteBuffer all = backend.readAll("round/trip.bin");

        assertThat(all.remaining()).isEqualTo(10_000);
        TestBytes.verify("round/trip.bin", 0, all);
        assertThat(backend.size("round/trip.bin")).isEqualTo(10_000);
        assertThat(backend.exists("round/trip.bin")).isTrue();
        assertThat(backend.uri()).isNotNull();
    }

    @Test
    void readsRangesAtTheStartMiddleAndEnd() {
        String key = "ranges.bin";
        putTestObject(key, 4096);

        for (ByteRange range : List.of(ByteRange.of(0, 1), ByteRange.of(0, 100), ByteRange.of(1000, 1),
                ByteRange.of(1000, 2000), ByteRange.between(4000, 4096), ByteRange.of(4095, 1))) {
            ByteBuffer got = backend.readRange(key, range);

            assertThat(got.remaining()).as("bytes in %s", range).isEqualTo((int) range.length());
            TestBytes.verify(key, range.offset(), got);
        }
    }

    @Test
    void readsARangeExactlyToTheEnd() {
        putTestObject("to-the-end.bin", 1500);

        ByteBuffer tail = backend.readRange("to-the-end.bin", ByteRange.between(1024, 1500));

        assertThat(tail.remaining()).isEqualTo(476);
        TestBytes.verify("to-the-end.bin", 1024, tail);
        ByteBuffer whole = backend.readRange("to-the-end.bin", ByteRange.of(0, 1500));
        TestBytes.verify("to-the-end.bin", 0, whole);
        assertThat(whole.remaining()).isEqualTo(1500);
    }

    @Test
    void zeroLengthRangesUpToTheEndAreEmpty() {
        putTestObject("zero.bin", 100);

        for (long offset : new long[] {0, 50, 100}) {
            assertThat(backend.readRange("zero.bin", ByteRange.of(offset, 0)).remaining())
                    .as("range [%d, %d)", offset, offset).isZero();
        }
        assertThatThrownBy(() -> backend.readRange("zero.bin", ByteRange.of(101, 0)))
                .isInstanceOf(RangeNotSatisfiableException.class);
    }

    @Test
    void emptyObjectsHaveSizeZero() {
        backend.put("empty", new byte[0]);

        assertThat(backend.size("empty")).isZero();
        assertThat(backend.exists("empty")).isTrue();
        assertThat(backend.readAll("empty").remaining()).isZero();
        assertThat(backend.readRange("empty", ByteRange.of(0, 0)).remaining()).isZero();
        assertThatThrownBy(() -> backend.readRange("empty", ByteRange.of(0, 1)))
                .isInstanceOf(RangeNotSatisfiableException.class)
                .hasMessage("Cannot read range [0, 1) of empty: object is 0 bytes");
        try (Stream<ObjectInfo> listed = backend.list("")) {
            assertThat(listed).containsExactly(new ObjectInfo("empty", 0));
        }
    }

    @Test
    void aRangePastTheEndFailsNamingKeyRangeAndSize() {
        putTestObject("shard-00003.tar", 1500);

        assertThatThrownBy(() -> backend.readRange("shard-00003.tar", ByteRange.of(1024, 1024)))
                .isInstanceOf(RangeNotSatisfiableException.class)
                .hasMessage("Cannot read range [1024, 2048) of shard-00003.tar: object is 1500 bytes")
                .satisfies(e -> {
                    RangeNotSatisfiableException r = (RangeNotSatisfiableException) e;
                    assertThat(r.key()).isEqualTo("shard-00003.tar");
                    assertThat(r.range()).isEqualTo(ByteRange.of(1024, 1024));
                    assertThat(r.objectSize()).isEqualTo(1500);
                });
        assertThatThrownBy(() -> backend.readRange("shard-00003.tar", ByteRange.of(1500, 1)))
                .hasMessage("Cannot read range [1500, 1501) of shard-00003.tar: object is 1500 bytes");
        assertThatThrownBy(() -> backend.readRange("shard-00003.tar", ByteRange.of(5000, 10)))
                .isInstanceOf(RangeNotSatisfiableException.class);
    }

    @Test
    void asynchronousReadsFailThroughTheFuture() {
        putTestObject("async.bin", 10);

        CompletableFuture<ByteBuffer> pastEnd = backend.readRangeAsync("async.bin", ByteRange.of(5, 10));
        CompletableFuture<ByteBuffer> missing = backend.readRangeAsync("missing.bin", ByteRange.of(0, 1));
        CompletableFuture<ByteBuffer> missingWhole = backend.readAllAsync("missing.bin");

        assertThatThrownBy(pastEnd::join).isInstanceOf(CompletionException.class)
                .hasCauseInstanceOf(RangeNotSatisfiableException.class);
        assertThatThrownBy(missing::join).hasCauseInstanceOf(ObjectNotFoundException.class);
        assertThatThrownBy(missingWhole::join).hasCauseInstanceOf(ObjectNotFoundException.class);
        TestBytes.verify("async.bin", 2, backend.readRangeAsync("async.bin", ByteRange.of(2, 8)).join());
    }

    @Test
    void missingObjectsFailNamingTheKey() {
        putTestObject("present/a.bin", 10);
        String key = "present/missing.bin";

        assertThatThrownBy(() -> backend.size(key))
                .isInstanceOf(ObjectNotFoundException.class).hasMessageContaining(key);
        assertThatThrownBy(() -> backend.readRange(key, ByteRange.of(0, 1)))
                .isInstanceOf(ObjectNotFoundException.class).hasMessageContaining(key);
        assertThatThrownBy(() -> backend.readRange(key, ByteRange.of(0, 0)))
                .isInstanceOf(ObjectNotFoundException.class).hasMessageContaining(key);
        assertThatThrownBy(() -> backend.readAll(key))
                .isInstanceOf(ObjectNotFoundException.class).hasMessageContaining(key);
        assertThat(backend.exists(key)).isFalse();
    }

    @Test
    void aPrefixOfKeysIsNotAnObject() {
        putTestObject("dir/inner/object.bin", 10);

        assertThat(backend.exists("dir")).isFalse();
        assertThat(backend.exists("dir/inner")).isFalse();
        assertThatThrownBy(() -> backend.readAll("dir/inner")).isInstanceOf(ObjectNotFoundException.class);
        assertThatThrownBy(() -> backend.readRange("dir", ByteRange.of(0, 0)))
                .isInstanceOf(ObjectNotFoundException.class);
        backend.delete("dir/inner");
        assertThat(backend.exists("dir/inner/object.bin")).isTrue();
    }

    // ---- writes and deletes ------------------------------------------------------------------------------

    @Test
    void overwritingReplacesTheWholeObject() {
        backend.put("over.bin", TestBytes.of("first", 1000));
        backend.put("over.bin", TestBytes.of("second", 300));

        assertThat(backend.size("over.bin")).isEqualTo(300);
        TestBytes.verify("second", 0, backend.readAll("over.bin"));
        assertThatThrownBy(() -> backend.readRange("over.bin", ByteRange.of(300, 1)))
                .isInstanceOf(RangeNotSatisfiableException.class);
    }

    @Test
    void deleteRemovesOnlyThatObjectAndToleratesMissingKeys() {
        putTestObject("del/a", 10);
        putTestObject("del/b", 10);
        putTestObject("del/sub/c", 10);

        backend.delete("del/a");
        backend.delete("del/sub/c");
        backend.delete("del/never-there");
        backend.delete("nowhere/at/all");

        assertThat(backend.exists("del/a")).isFalse();
        assertThatThrownBy(() -> backend.size("del/a")).isInstanceOf(ObjectNotFoundException.class);
        assertThat(backend.exists("del/b")).isTrue();
        try (Stream<ObjectInfo> listed = backend.list("")) {
            assertThat(listed.map(ObjectInfo::key)).containsExactly("del/b");
        }
        backend.deleteAll(List.of("del/b", "del/missing"));
        try (Stream<ObjectInfo> listed = backend.list("")) {
            assertThat(listed).isEmpty();
        }
        putTestObject("del/sub/c", 5);
        assertThat(backend.size("del/sub/c")).isEqualTo(5);
    }

    @ParameterizedTest
    @ValueSource(strings = {"../x", "/abs", "", "a//b", "a/./b", "a/", "a\\b", "tab\there"})
    void invalidKeysAreRejected(String key) {
        assertThatThrownBy(() -> backend.put(key, new byte[1])).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> backend.size(key)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> backend.readRange(key, ByteRange.of(0, 1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> backend.readAll(key)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> backend.delete(key)).isInstanceOf(IllegalArgumentException.class);
        try (Stream<ObjectInfo> listed = backend.list("")) {
            assertThat(listed).isEmpty();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"../", "/abs", "a//"})
    void invalidListingPrefixesAreRejected(String prefix) {
        assertThatThrownBy(() -> {
            try (Stream<ObjectInfo> listed = backend.list(prefix)) {
                listed.count();
            }
        }).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void putsAFile() throws Exception {
        Path file = contractScratch.resolve("source.bin");
        Files.write(file, TestBytes.of("from-file", 70_000));

        backend.put("copied/from-file.bin", file);

        assertThat(backend.size("copied/from-file.bin")).isEqualTo(70_000);
        TestBytes.verify("from-file", 0, backend.readAll("copied/from-file.bin"));
        assertThat(file).exists();
    }

    @Test
    void putsStoreExactlyTheStatedLengthOfAStream() {
        backend.put("streamed.bin", TestBytes.stream("streamed", 200_000), 150_000);

        assertThat(backend.size("streamed.bin")).isEqualTo(150_000);
        TestBytes.verify("streamed", 0, backend.readAll("streamed.bin"));
    }

    @Test
    void aStreamShorterThanStatedFailsAndStoresNothing() {
        InputStream shortStream = new ByteArrayInputStream(TestBytes.of("short", 40));

        assertThatThrownBy(() -> backend.put("short.bin", shortStream, 100))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining("short.bin").hasMessageContaining("40").hasMessageContaining("100");
        assertThat(backend.exists("short.bin")).isFalse();
        try (Stream<ObjectInfo> listed = backend.list("")) {
            assertThat(listed).isEmpty();
        }
    }

    @Test
    void aFailedPutLeavesNoObjectAndKeepsAnOldOne() {
        assertThatThrownBy(() -> backend.put("nested/new.bin", TestBytes.failingAfter("x", 100_000), 300_000))
                .isInstanceOf(StorageException.class).hasMessageContaining("nested/new.bin");
        assertThat(backend.exists("nested/new.bin")).isFalse();

        putTestObject("kept.bin", 5000);
        assertThatThrownBy(() -> backend.put("kept.bin", TestBytes.failingAfter("x", 1000), 9000))
                .isInstanceOf(StorageException.class);
        assertThatThrownBy(() -> backend.put("kept.bin", new ByteArrayInputStream(new byte[10]), 11))
                .isInstanceOf(StorageException.class);

        assertThat(backend.size("kept.bin")).isEqualTo(5000);
        TestBytes.verify("kept.bin", 0, backend.readAll("kept.bin"));
        try (Stream<ObjectInfo> listed = backend.list("")) {
            assertThat(listed).containsExactly(new ObjectInfo("kept.bin", 5000));
        }
    }

    // ---- returned buffers --------------------------------------------------------------------------------

    @Test
    void returnedBuffersAreReadOnlyAndHoldExactlyTheRange() {
        putTestObject("buffers.bin", 1000);

        ByteBuffer first = backend.readRange("buffers.bin", ByteRange.of(100, 50));
        ByteBuffer second = backend.readRange("buffers.bin", ByteRange.of(100, 50));
        ByteBuffer all = backend.readAll("buffers.bin");

        assertThat(first.isReadOnly()).isTrue();
        assertThat(all.isReadOnly()).isTrue();
        assertThat(first.remaining()).isEqualTo(50);
        assertThatThrownBy(() -> first.put(first.position(), (byte) 0)).isInstanceOf(
                java.nio.ReadOnlyBufferException.class);
        byte[] drained = new byte[50];
        first.get(drained);
        assertThat(drained).isEqualTo(TestBytes.of("buffers.bin", 100, 50));
        assertThat(second.remaining()).as("reading one buffer leaves another untouched").isEqualTo(50);
        TestBytes.verify("buffers.bin", 100, second);
    }

    // ---- concurrency and size ----------------------------------------------------------------------------

    @Test
    void concurrentReadersSeeTheRightBytes() throws Exception {
        List<String> keys = List.of("c/one-byte", "c/small", "c/medium", "c/large");
        int[] sizes = {1, 4097, 100_003, 1 << 20};
        for (int i = 0; i < keys.size(); i++) {
            putTestObject(keys.get(i), sizes[i]);
        }
        int threads = 32;
        int readsPerThread = 200;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<Integer>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                long seed = t;
                results.add(pool.submit(() -> {
                    Random random = new Random(seed);
                    go.await();
                    int verified = 0;
                    for (int r = 0; r < readsPerThread; r++) {
                        int which = random.nextInt(keys.size());
                        String key = keys.get(which);
                        int size = sizes[which];
                        long offset = random.nextInt(size + 1);
                        long length = random.nextInt((int) Math.min(size - offset, 64 * 1024) + 1);
                        ByteBuffer got = r % 50 == 49 ? backend.readAll(key)
                                : backend.readRange(key, ByteRange.of(offset, length));
                        if (r % 50 == 49) {
                            offset = 0;
                            length = size;
                        }
                        assertThat(got.remaining()).isEqualTo((int) length);
                        TestBytes.verify(key, offset, got);
                        verified++;
                    }
                    return verified;
                }));
            }
            go.countDown();
            int total = 0;
            for (Future<Integer> result : results) {
                total += result.get(60, TimeUnit.SECONDS);
            }
            assertThat(total).isEqualTo(threads * readsPerThread);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void readersSeeTheOldObjectOrTheNewOneNeverAMix() throws Exception {
        String key = "swap.bin";
        backend.put(key, TestBytes.of("version-a", 64 * 1024));
        OverwriteRace.run(40, i -> {
            boolean a = i % 2 == 0;
            backend.put(key, TestBytes.of(a ? "version-a" : "version-b", a ? 64 * 1024 : 48 * 1024));
        }, () -> {
            ByteBuffer got = backend.readAll(key);
            TestBytes.verify(got.remaining() == 64 * 1024 ? "version-a" : "version-b", 0, got);
            assertThat(got.remaining()).isIn(64 * 1024, 48 * 1024);
        });
    }

    @Test
    void largeObjectsReadInRangesAndWhole() {
        String key = "large/object.bin";
        int size = largeObjectSize();
        backend.put(key, TestBytes.stream(key, size), size);

        assertThat(backend.size(key)).isEqualTo(size);
        Random random = new Random(42);
        List<ByteRange> ranges = new ArrayList<>(List.of(ByteRange.of(0, 1 << 20), ByteRange.between(size - 1000, size),
                ByteRange.of(size / 2 - 3, 7)));
        for (int i = 0; i < 16; i++) {
            long offset = random.nextInt(size);
            ranges.add(ByteRange.of(offset, random.nextInt((int) Math.min(size - offset, 2 << 20) + 1)));
        }
        for (ByteRange range : ranges) {
            ByteBuffer got = backend.readRange(key, range);
            assertThat(got.remaining()).isEqualTo((int) range.length());
            TestBytes.verify(key, range.offset(), got);
        }
        ByteBuffer whole = backend.readAll(key);
        assertThat(whole.remaining()).isEqualTo(size);
        TestBytes.verify(key, 0, whole);
    }

    // ---- streamed reads ------------------------------------------------------------------------------------

    @Test
    void streamedRangesArriveInOrderAsPiecesOneAtATime() {
        String key = "streamed/object.bin";
        int size = largeObjectSize();
        backend.put(key, TestBytes.stream(key, size), size);

        for (ByteRange range : List.of(ByteRange.of(0, size), ByteRange.of(1, 1), ByteRange.of(size / 3, size / 2),
                ByteRange.between(size - 300_000, size))) {
            Streamed streamed = stream(key, range);

            streamed.result().join();
            assertThat(streamed.overlapped()).as("pieces of %s handed over concurrently", range).isFalse();
            assertThat(streamed.pieceSizes()).as("pieces of %s", range).allMatch(n -> n > 0);
            assertThat(streamed.readOnly()).as("every piece of %s is read-only", range).isTrue();
            ByteBuffer got = streamed.bytes();
            assertThat(got.remaining()).as("bytes of %s", range).isEqualTo((int) range.length());
            TestBytes.verify(key, range.offset(), got);
        }
    }

    @Test
    void aStreamedRangeIsCountedAsTheSameReadWouldBe() {
        String key = "streamed/metered.bin";
        int size = largeObjectSize();
        backend.put(key, TestBytes.stream(key, size), size);
        ByteRange range = ByteRange.of(1000, size - 2000);
        QueryMetrics read = new QueryMetrics();
        QueryMetrics streamed = new QueryMetrics();

        try (ObjectBackend reads = backend.withMetrics(read); ObjectBackend streams = backend.withMetrics(streamed)) {
            reads.readRange(key, range);
            Streamed pieces = new Streamed();
            ObjectBackend.await(streams.streamRangeAsync(key, range, pieces));
            assertThat(pieces.bytes().remaining()).isEqualTo(size - 2000);
        }

        assertThat(streamed.snapshot().requests(RequestKind.RANGE_GET))
                .isEqualTo(read.snapshot().requests(RequestKind.RANGE_GET)).isPositive();
        assertThat(streamed.snapshot().totalRequests()).isEqualTo(read.snapshot().totalRequests());
        assertThat(streamed.snapshot().bytesReceived()).isEqualTo(size - 2000);
    }

    @Test
    void streamedReadsFailAsReadsDoAndHandOverNothing() {
        putTestObject("streamed/small.bin", 1500);

        Streamed pastEnd = stream("streamed/small.bin", ByteRange.of(1024, 1024));
        Streamed missing = stream("streamed/missing.bin", ByteRange.of(0, 10));
        Streamed empty = stream("streamed/small.bin", ByteRange.of(1500, 0));

        assertThatThrownBy(() -> ObjectBackend.await(pastEnd.result()))
                .isInstanceOf(RangeNotSatisfiableException.class)
                .hasMessage("Cannot read range [1024, 2048) of streamed/small.bin: object is 1500 bytes");
        assertThatThrownBy(() -> ObjectBackend.await(missing.result()))
                .isInstanceOf(ObjectNotFoundException.class).hasMessageContaining("streamed/missing.bin");
        empty.result().join();
        assertThat(pastEnd.pieceSizes()).isEmpty();
        assertThat(missing.pieceSizes()).isEmpty();
        assertThat(empty.pieceSizes()).isEmpty();
    }

    @Test
    void aLongStreamedRangePastTheEndFailsBeforeAnyPieceNamingTheSize() {
        String key = "streamed/short.bin";
        int size = largeObjectSize();
        backend.put(key, TestBytes.stream(key, size), size);
        ByteRange range = ByteRange.between(size - (1 << 20), size + (10 << 20));   // several S3 parts, some past it

        Streamed streamed = stream(key, range);

        assertThatThrownBy(() -> ObjectBackend.await(streamed.result()))
                .isInstanceOf(RangeNotSatisfiableException.class)
                .hasMessage("Cannot read range " + range + " of " + key + ": object is " + size + " bytes");
        assertThat(streamed.pieceSizes()).isEmpty();
    }

    @Test
    void whatTheConsumerThrowsEndsTheStreamedRead() {
        String key = "streamed/refused.bin";
        int size = largeObjectSize();
        backend.put(key, TestBytes.stream(key, size), size);
        IllegalStateException refusal = new IllegalStateException("enough");
        List<Integer> pieces = new ArrayList<>();

        CompletableFuture<Void> read = backend.streamRangeAsync(key, ByteRange.of(0, size), piece -> {
            pieces.add(piece.remaining());
            throw refusal;
        });

        assertThatThrownBy(() -> ObjectBackend.await(read)).isSameAs(refusal);
        assertThat(pieces).hasSize(1);
        TestBytes.verify(key, 5, backend.readRange(key, ByteRange.of(5, 100)));   // the backend reads on
    }

    @Test
    void streamedReadersSeeOneVersionWholeOrFailNamingTheObject() throws Exception {
        assumeTrue(readsOfLargeObjectsSeeOneVersion(), "this backend documents that large reads may mix versions");
        String key = "streamed/swap.bin";
        int size = Math.min(largeObjectSize(), 9 << 20);   // more than one part of an S3 read
        backend.put(key, TestBytes.of("version-a", size));
        ByteBuffer startOfA = ByteBuffer.wrap(TestBytes.of("version-a", 64));
        OverwriteRace.run(4, i -> backend.put(key, TestBytes.of(i % 2 == 0 ? "version-a" : "version-b", size)), () -> {
            Streamed streamed = new Streamed();
            try {
                ObjectBackend.await(backend.streamRangeAsync(key, ByteRange.of(0, size), streamed));
            } catch (StorageException e) {   // S3: "overwritten while being read"; FAC: its blocks were replaced
                assertThat(e).hasMessageContaining(key);
                return;
            }
            ByteBuffer got = streamed.bytes();
            assertThat(got.remaining()).isEqualTo(size);
            TestBytes.verify(got.duplicate().limit(64).equals(startOfA) ? "version-a" : "version-b", 0, got);
        });
    }

    /** Streams {@code range} of {@code key} into a {@link Streamed}, whose result is the read's future. */
    private Streamed stream(String key, ByteRange range) {
        Streamed streamed = new Streamed();
        streamed.result = backend.streamRangeAsync(key, range, streamed);
        return streamed;
    }

    /** Gathers a streamed read's pieces, noting their sizes and whether two were ever handed over at once. */
    private static final class Streamed implements Consumer<ByteBuffer> {
        private final ByteArrayOutputStream gathered = new ByteArrayOutputStream();
        private final List<Integer> sizes = new ArrayList<>();
        private final AtomicBoolean inside = new AtomicBoolean();
        private volatile boolean overlapped;
        private volatile boolean readOnly = true;
        private CompletableFuture<Void> result;

        @Override
        public void accept(ByteBuffer piece) {
            if (!inside.compareAndSet(false, true)) {
                overlapped = true;
            }
            synchronized (this) {
                readOnly &= piece.isReadOnly();
                sizes.add(piece.remaining());
                byte[] bytes = new byte[piece.remaining()];
                piece.duplicate().get(bytes);
                gathered.writeBytes(bytes);
            }
            inside.set(false);
        }

        CompletableFuture<Void> result() {
            return result;
        }

        boolean overlapped() {
            return overlapped;
        }

        boolean readOnly() {
            return readOnly;
        }

        synchronized List<Integer> pieceSizes() {
            return List.copyOf(sizes);
        }

        synchronized ByteBuffer bytes() {
            return ByteBuffer.wrap(gathered.toByteArray());
        }
    }

    // ---- listing -----------------------------------------------------------------------------------------

    @Test
    void listsManyKeysInAscendingOrderWithSizes() {
        // 2,500 keys over nested prefixes; the numbers are not zero-padded, so "a/3" is a string prefix of "a/30".
        TreeMap<String, Long> expected = new TreeMap<>();
        for (int i = 0; i < 2500; i++) {
            String key = "many/" + (char) ('a' + i % 3) + "/" + (i % 7 == 0 ? "deep/er/" : "") + i;
            int size = i % 13;
            backend.put(key, TestBytes.of(key, size));
            expected.put(key, (long) size);
        }
        putTestObject("other/x", 3);

        assertThat(list("many/")).containsExactlyElementsOf(infos(expected, "many/"));
        assertThat(list("many/b/")).containsExactlyElementsOf(infos(expected, "many/b/"));
        assertThat(list("many/a/3"))
                .containsExactlyElementsOf(infos(expected, "many/a/3"))
                .contains(new ObjectInfo("many/a/3", 3), new ObjectInfo("many/a/30", 30 % 13),
                        new ObjectInfo("many/a/300", 300 % 13));
        assertThat(list("many/a/deep/er/2")).containsExactlyElementsOf(infos(expected, "many/a/deep/er/2"));
        assertThat(list("many/c/deep")).containsExactlyElementsOf(infos(expected, "many/c/deep"));
        List<ObjectInfo> everything = list("");
        assertThat(everything).hasSize(2501).endsWith(new ObjectInfo("other/x", 3));
        assertThat(everything.stream().map(ObjectInfo::key).collect(Collectors.toList())).isSorted();
        assertThat(list("nothing/here/")).isEmpty();
        assertThat(list("many/d")).isEmpty();
        assertThat(list("many/a/3/")).isEmpty();
    }

    @Test
    void listingOrderIsKeyOrderNotDirectoryOrder() {
        // '-' and '.' sort before '/', '0' and '_' after it: a directory walk in name order would get this wrong.
        List<String> keys = List.of("x/a/b", "x/a-b", "x/a.b", "x/a/c/d", "x/a0", "x/a_", "x/ab", "x/a/c-e",
                "x/a/c/e", "x/a/c.txt");
        keys.forEach(key -> putTestObject(key, 1));

        assertThat(list("x/").stream().map(ObjectInfo::key))
                .containsExactlyElementsOf(keys.stream().sorted().collect(Collectors.toList()));
        assertThat(list("x/a/c").stream().map(ObjectInfo::key))
                .containsExactly("x/a/c-e", "x/a/c.txt", "x/a/c/d", "x/a/c/e");
    }

    @Test
    void listingIsLazyAndCanBeClosedEarly() {
        for (int i = 0; i < 30; i++) {
            putTestObject("lazy/" + i, 1);
        }

        try (Stream<ObjectInfo> listed = backend.list("lazy/")) {
            assertThat(listed.limit(3).map(ObjectInfo::key)).containsExactly("lazy/0", "lazy/1", "lazy/10");
        }
    }

    // ---- metrics -----------------------------------------------------------------------------------------

    @Test
    void readsThroughAMetricsViewCountOneRequestAndTheRangeBytes() {
        putTestObject("metered.bin", 10_000);
        QueryMetrics metrics = new QueryMetrics();

        try (ObjectBackend metered = backend.withMetrics(metrics)) {
            TestBytes.verify("metered.bin", 1234, metered.readRange("metered.bin", ByteRange.of(1234, 567)));

            MetricsSnapshot afterRange = metrics.snapshot();
            assertThat(afterRange.totalRequests()).isEqualTo(1);
            assertThat(afterRange.requests(RequestKind.RANGE_GET)).isEqualTo(1);
            assertThat(afterRange.bytesReceived()).isEqualTo(567);

            metered.readAll("metered.bin");
            assertThat(metrics.snapshot().bytesReceived()).isEqualTo(567 + 10_000);
        }
        // Closing the view leaves the backend open.
        TestBytes.verify("metered.bin", 0, backend.readRange("metered.bin", ByteRange.of(0, 10)));
    }

    @Test
    void aMetricsViewSharesTheObjectsAndCountsPuts() {
        QueryMetrics metrics = new QueryMetrics();

        try (ObjectBackend metered = backend.withMetrics(metrics)) {
            metered.put("via-view.bin", TestBytes.of("via-view.bin", 2000));

            MetricsSnapshot snapshot = metrics.snapshot();
            assertThat(snapshot.requests(RequestKind.PUT)).isPositive();
            assertThat(snapshot.bytesSent()).isEqualTo(2000);
            assertThat(snapshot.bytesReceived()).isZero();
        }
        TestBytes.verify("via-view.bin", 0, backend.readAll("via-view.bin"));
        putTestObject("via-backend.bin", 10);
        try (ObjectBackend metered = backend.withMetrics(new QueryMetrics())) {
            assertThat(metered.size("via-backend.bin")).isEqualTo(10);
        }
    }

    private List<ObjectInfo> list(String prefix) {
        try (Stream<ObjectInfo> listed = backend.list(prefix)) {
            return listed.collect(Collectors.toList());
        }
    }

    private static List<ObjectInfo> infos(TreeMap<String, Long> expected, String prefix) {
        return expected.entrySet().stream()
                .filter(e -> e.getKey().startsWith(prefix))
                .map(e -> new ObjectInfo(e.getKey(), e.getValue()))
                .collect(Collectors.toList());
    }
}
