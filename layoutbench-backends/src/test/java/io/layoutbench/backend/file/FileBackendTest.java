package io.layoutbench.backend.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.api.backend.AccessDeniedException;
import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectBackendContractTest;
import io.layoutbench.api.backend.ObjectBackends;
import io.layoutbench.api.backend.ObjectInfo;
import io.layoutbench.api.backend.ObjectNotFoundException;
import io.layoutbench.api.backend.RangeNotSatisfiableException;
import io.layoutbench.api.backend.StorageException;
import io.layoutbench.api.internal.SlicedIo;
import io.layoutbench.api.metrics.MetricsSnapshot;
import io.layoutbench.api.metrics.QueryMetrics;
import io.layoutbench.api.metrics.RequestKind;
import io.layoutbench.api.metrics.RequestMetrics;
import io.layoutbench.api.testing.TestBytes;
import io.layoutbench.backend.memory.MemoryBackend;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileBackendTest extends ObjectBackendContractTest {

    @TempDir
    Path temp;

    private Path root() {
        return temp.resolve("store");
    }

    /**
     * Without fsync: the suite writes thousands of small objects and an fsync costs from 0.3 ms (local SSD) to
     * 10 ms (network disks). Durable writes are the same code plus {@link java.nio.channels.FileChannel#force};
     * {@link #durableWritesRoundTrip()} runs them.
     */
    @Override
    protected ObjectBackend newBackend() {
        // The directory does not exist yet: the backend creates it.
        return new FileBackend(root(), FileBackend.Options.defaults().withFsync(false), RequestMetrics.NONE);
    }

    @Test
    void aStreamedReadHandsOverNoPieceAfterItIsCancelled() throws Exception {
        try (FileBackend oneThread = new FileBackend(temp.resolve("one-thread"),
                FileBackend.Options.defaults().withIoThreads(1).withFsync(false), RequestMetrics.NONE)) {
            int size = 4 * FileBackend.STREAM_PIECE_BYTES;
            oneThread.put("streamed.bin", TestBytes.of("streamed.bin", size));
            List<Integer> pieces = new CopyOnWriteArrayList<>();
            CompletableFuture<CompletableFuture<Void>> self = new CompletableFuture<>();

            CompletableFuture<Void> streaming = oneThread.streamRangeAsync("streamed.bin", ByteRange.of(0, size),
                    piece -> {
                        pieces.add(piece.remaining());
                        self.join().cancel(false);   // the caller gives up after the first piece
                    });
            self.complete(streaming);

            // The one I/O thread takes the next read only once the cancelled one has stopped.
            TestBytes.verify("streamed.bin", 7, oneThread.readRange("streamed.bin", ByteRange.of(7, 10)));
            assertThat(streaming).isCancelled();
            assertThat(pieces).containsExactly(FileBackend.STREAM_PIECE_BYTES);
        }
    }

    @Test
    void durableWritesRoundTrip() throws IOException {
        try (FileBackend durable = new FileBackend(temp.resolve("durable"))) {
            assertThat(durable.options().fsync()).isTrue();
            durable.put("a/b.bin", TestBytes.stream("a/b.bin", 300_000), 300_000);
            durable.put("a/b.bin", TestBytes.stream("a/b.bin", 200_000), 200_000);
            Path source = Files.write(temp.resolve("source"), TestBytes.of("c", 1000));
            durable.put("c.bin", source);
            assertThatThrownBy(() -> durable.put("a/b.bin", TestBytes.failingAfter("x", 10), 20))
                    .isInstanceOf(StorageException.class);

            TestBytes.verify("a/b.bin", 0, durable.readAll("a/b.bin"));
            assertThat(durable.size("a/b.bin")).isEqualTo(200_000);
            TestBytes.verify("c", 0, durable.readAll("c.bin"));
            assertThat(filesBelow(temp.resolve("durable")))
                    .containsExactly(temp.resolve("durable/a/b.bin"), temp.resolve("durable/c.bin"));
        }
    }

    // ---- layout on disk ----------------------------------------------------------------------------------

    @Test
    void keysAreOrdinaryFilesBelowTheRoot() throws IOException {
        backend.put("a/b/c.tar", TestBytes.of("a/b/c.tar", 3000));
        Files.createDirectories(root().resolve("by/hand"));
        Files.write(root().resolve("by/hand/made.bin"), TestBytes.of("made", 77));

        assertThat(Files.readAllBytes(root().resolve("a/b/c.tar"))).isEqualTo(TestBytes.of("a/b/c.tar", 3000));
        assertThat(backend.size("by/hand/made.bin")).isEqualTo(77);
        TestBytes.verify("made", 0, backend.readAll("by/hand/made.bin"));
        assertThat(list("")).containsExactly(new ObjectInfo("a/b/c.tar", 3000), new ObjectInfo("by/hand/made.bin", 77));
        assertThat(backend.uri()).isEqualTo(root().toUri());
        assertThat(((FileBackend) backend).root()).isEqualTo(root().toAbsolutePath().normalize());
    }

    @Test
    void keysEscapingTheRootAreRejected() {
        Path root = root().toAbsolutePath();

        assertThatThrownBy(() -> FileBackend.resolveInside(root, "a/../../outside"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("a/../../outside").hasMessageContaining("outside the file backend root " + root);
        assertThatThrownBy(() -> FileBackend.resolveInside(root, "/etc/passwd"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("outside");
        assertThatThrownBy(() -> FileBackend.resolveInside(root, "a/.."))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("outside");
        assertThat(FileBackend.resolveInside(root, "a/b")).isEqualTo(root.resolve("a").resolve("b"));
        assertThatThrownBy(() -> backend.put("../outside", new byte[1])).isInstanceOf(IllegalArgumentException.class);
        assertThat(temp.resolve("outside")).doesNotExist();
    }

    // ---- symbolic links ----------------------------------------------------------------------------------

    @Test
    void aLinkOutOfTheRootIsFollowedByNoOperation() throws IOException {
        Path outside = Files.createDirectories(temp.resolve("outside"));
        Files.write(outside.resolve("secret"), new byte[] {1, 2, 3});
        backend.put("kept", new byte[1]);   // the root exists
        Files.createSymbolicLink(root().resolve("evil"), outside);

        assertRefused(() -> backend.put("evil/x", new byte[] {9}), "store evil/x", "evil", outside);
        assertRefused(() -> backend.put("evil/x", Files.write(temp.resolve("source"), new byte[] {9})),
                "store evil/x", "evil", outside);
        assertRefused(() -> backend.put("evil/deeper/x", new byte[] {9}), "store evil/deeper/x", "evil", outside);
        assertRefused(() -> backend.readAll("evil/secret"), "read evil/secret", "evil", outside);
        assertRefused(() -> backend.readRange("evil/secret", ByteRange.of(0, 2)), "read range [0, 2) of evil/secret",
                "evil", outside);
        assertRefused(() -> backend.size("evil/secret"), "read the size of evil/secret", "evil", outside);
        assertRefused(() -> backend.delete("evil/secret"), "delete evil/secret", "evil", outside);
        assertRefused(() -> backend.list("evil/").toList(), "list evil/", "evil", outside);
        assertRefused(() -> backend.list("evil/sec").toList(), "list evil/sec", "evil", outside);

        assertThat(outside.resolve("x")).doesNotExist();
        assertThat(outside.resolve("deeper")).doesNotExist();
        assertThat(Files.readAllBytes(outside.resolve("secret"))).containsExactly(1, 2, 3);
        assertThat(backend.list("").map(ObjectInfo::key)).as("a link is not an object").containsExactly("kept");
        assertThat(backend.list("e").map(ObjectInfo::key)).isEmpty();
    }

    @Test
    void aLinkAsTheObjectOrDeeperInItsPathIsRefusedToo() throws IOException {
        Path outside = Files.createDirectories(temp.resolve("outside"));
        Path secret = Files.write(outside.resolve("secret"), new byte[] {1, 2, 3});
        backend.put("a/b/kept", new byte[1]);
        Files.createSymbolicLink(root().resolve("a/b/evil"), outside);
        Files.createSymbolicLink(root().resolve("a/passwd"), secret);

        assertRefused(() -> backend.readAll("a/passwd"), "read a/passwd", "a/passwd", secret);
        assertRefused(() -> backend.size("a/passwd"), "read the size of a/passwd", "a/passwd", secret);
        assertRefused(() -> backend.put("a/passwd", new byte[] {9}), "store a/passwd", "a/passwd", secret);
        assertRefused(() -> backend.delete("a/passwd"), "delete a/passwd", "a/passwd", secret);
        assertRefused(() -> backend.put("a/b/evil/x", new byte[] {9}), "store a/b/evil/x", "a/b/evil", outside);
        assertRefused(() -> backend.readAll("a/b/evil/secret"), "read a/b/evil/secret", "a/b/evil", outside);

        assertThat(Files.readAllBytes(secret)).containsExactly(1, 2, 3);
        assertThat(outside.resolve("x")).doesNotExist();
        assertThat(backend.list("a/").map(ObjectInfo::key)).containsExactly("a/b/kept");
        assertThat(root().resolve("a/passwd")).isSymbolicLink();
    }

    @Test
    void aLinkInsideTheRootIsRefusedAsWell() throws IOException {
        // Following links that stay inside would alias keys and loop in listings; the backend never makes links.
        backend.put("real/x", new byte[] {7});
        Files.createSymbolicLink(root().resolve("alias"), root().resolve("real"));

        assertRefused(() -> backend.readAll("alias/x"), "read alias/x", "alias", root().resolve("real"));
        assertThat(backend.list("").map(ObjectInfo::key)).containsExactly("real/x");
    }

    @Test
    void aDirectorySwappedForALinkDuringAPutGetsNoData() throws IOException {
        Path outside = Files.createDirectories(temp.resolve("outside"));
        backend.put("d/kept", new byte[1]);
        // The source swaps d for a link to outside once the put has checked the path and opened its temporary file.
        InputStream swapping = new ByteArrayInputStream(new byte[] {4, 5, 6}) {
            private boolean swapped;

            @Override
            public synchronized int read(byte[] b, int off, int len) {
                if (!swapped) {
                    swapped = true;
                    try {
                        Files.move(root().resolve("d"), root().resolve("moved"));
                        Files.createSymbolicLink(root().resolve("d"), outside);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }
                return super.read(b, off, len);
            }
        };

        assertRefused(() -> backend.put("d/x", swapping, 3), "store d/x", "d", outside);
        try (Stream<Path> written = Files.list(outside)) {
            assertThat(written).isEmpty();
        }
        assertThat(backend.list("").map(ObjectInfo::key)).containsExactly("moved/kept");
    }

    private void assertRefused(org.assertj.core.api.ThrowableAssert.ThrowingCallable call, String what, String link,
            Path target) {
        assertThatThrownBy(call).isInstanceOf(AccessDeniedException.class)
                .hasMessageStartingWith("Cannot " + what + " in the file backend " + root())
                .hasMessageContaining(": " + link + " is a symbolic link to " + target);
    }

    @Test
    void aPutThatFailsMidwayLeavesNoFileBehind() throws IOException {
        assertThatThrownBy(() -> backend.put("deep/dir/obj.bin", TestBytes.failingAfter("x", 200_000), 1_000_000))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining("deep/dir/obj.bin").hasMessageContaining("reading the source failed after");

        assertThat(root().resolve("deep/dir/obj.bin")).doesNotExist();
        assertThat(filesBelow(root())).as("no temporary file is left").isEmpty();
        assertThat(root().resolve("deep")).as("directories made for the put are removed").doesNotExist();
    }

    @Test
    void aFailedOverwriteLeavesTheOldFileUnchanged() throws IOException {
        backend.put("keep/me.bin", TestBytes.of("old", 5000));

        assertThatThrownBy(() -> backend.put("keep/me.bin", TestBytes.failingAfter("new", 70_000), 100_000))
                .isInstanceOf(StorageException.class);

        assertThat(Files.readAllBytes(root().resolve("keep/me.bin"))).isEqualTo(TestBytes.of("old", 5000));
        assertThat(filesBelow(root())).containsExactly(root().resolve("keep/me.bin"));
    }

    @Test
    void temporaryFilesAreNeitherListedNorReadable() throws IOException {
        backend.put("t/x.bin", new byte[5]);
        String tempName = ".x.bin.0123456789abcdef.tmp";
        Files.write(root().resolve("t").resolve(tempName), new byte[9]);

        assertThat(list("")).containsExactly(new ObjectInfo("t/x.bin", 5));
        assertThat(list("t/.x")).isEmpty();
        assertThatThrownBy(() -> backend.size("t/" + tempName))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("reserved");
        assertThat(FileBackend.isTempName(tempName)).isTrue();
        assertThat(FileBackend.isTempName(".hidden")).isFalse();
        assertThat(FileBackend.isTempName("x.tmp")).isFalse();
    }

    @Test
    void anObjectAndKeysBelowItCannotShareAName() {
        backend.put("a", new byte[1]);
        backend.put("c/d", new byte[2]);

        assertThatThrownBy(() -> backend.put("a/b", new byte[1]))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining("Cannot store a/b").hasMessageContaining("a is an object");
        assertThatThrownBy(() -> backend.put("c", new byte[1]))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining("Cannot store c").hasMessageContaining("is a directory holding objects below c/");
        assertThatThrownBy(() -> backend.size("a/b")).isInstanceOf(ObjectNotFoundException.class);
        assertThatThrownBy(() -> backend.readAll("a/b")).isInstanceOf(ObjectNotFoundException.class);
        backend.delete("a/b");

        assertThat(list("")).containsExactly(new ObjectInfo("a", 1), new ObjectInfo("c/d", 2));
    }

    @Test
    void deleteRemovesEmptyParentDirectoriesUpToTheRoot() {
        backend.put("p/q/r/s.bin", new byte[1]);
        backend.put("p/t.bin", new byte[1]);

        backend.delete("p/q/r/s.bin");
        assertThat(root().resolve("p/q")).doesNotExist();
        assertThat(root().resolve("p/t.bin")).exists();

        backend.delete("p/t.bin");
        assertThat(root().resolve("p")).doesNotExist();
        assertThat(root()).isDirectory();
    }

    @Test
    void concurrentPutsAndDeletesInOneDirectoryAllSucceed() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> work = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                String key = "race/dir/k" + t;
                work.add(pool.submit(() -> {
                    for (int i = 0; i < 50; i++) {
                        backend.put(key, new byte[i]);
                        assertThat(backend.size(key)).isEqualTo(i);
                        backend.delete(key);
                    }
                }));
            }
            for (Future<?> f : work) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(list("")).isEmpty();
        assertThat(filesBelow(root())).isEmpty();
    }

    @Test
    void theRootIsCreatedAndMustBeADirectory() throws IOException {
        Path nested = temp.resolve("x/y/z");
        try (FileBackend created = new FileBackend(nested)) {
            assertThat(nested).isDirectory();
            assertThat(created.options()).isEqualTo(FileBackend.Options.defaults());
        }
        Path file = Files.write(temp.resolve("plain-file"), new byte[1]);
        assertThatThrownBy(() -> new FileBackend(file))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(file.toString()).hasMessageContaining("not a directory");
    }

    // ---- large objects -----------------------------------------------------------------------------------

    @Test
    void objectsLargerThan2GiBAreReadInRanges() throws IOException {
        long size = 3L << 30;
        long offset = (5L << 30) / 2;   // 2.5 GiB, past what an int can address
        byte[] marker = TestBytes.of("huge", offset, 4096);
        try (RandomAccessFile file = new RandomAccessFile(root().resolve("huge.bin").toFile(), "rw")) {
            file.setLength(size);   // sparse: takes no disk space
            file.seek(offset);
            file.write(marker);
        }

        assertThat(backend.size("huge.bin")).isEqualTo(size);
        TestBytes.verify("huge", offset + 100, backend.readRange("huge.bin", ByteRange.of(offset + 100, 3000)));
        assertThat(backend.readRange("huge.bin", ByteRange.of(size - 10, 10)).remaining()).isEqualTo(10);
        assertThatThrownBy(() -> backend.readRange("huge.bin", ByteRange.of(size - 10, 11)))
                .isInstanceOf(RangeNotSatisfiableException.class)
                .hasMessage("Cannot read range [3221225462, 3221225473) of huge.bin: object is 3221225472 bytes");
        assertThatThrownBy(() -> backend.readRange("huge.bin", ByteRange.of(1, Integer.MAX_VALUE)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("huge.bin").hasMessageContaining("[1, 2147483648)");
        assertThatThrownBy(() -> backend.readAll("huge.bin"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("huge.bin").hasMessageContaining("read it in ranges");
    }

    @Test
    void largeRangesAreReadWithoutADirectBufferOfTheirSize() throws Exception {
        // A FileChannel read into a heap buffer copies through a temporary direct buffer as large as the read, which
        // the JDK caches in the reading thread: four threads reading 24 MiB at once would keep 96 MiB outside the
        // heap. Read in slices, they keep at most a slice each.
        int threads = 4;
        int size = 24 << 20;
        Path file = root().resolve("large.bin");
        Files.createDirectories(file.getParent());
        try (RandomAccessFile out = new RandomAccessFile(file.toFile(), "rw")) {
            out.setLength(size);
        }
        BufferPoolMXBean direct = ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class).stream()
                .filter(pool -> pool.getName().equals("direct")).findFirst().orElseThrow();
        try (FileBackend reader = new FileBackend(root(), FileBackend.Options.defaults().withIoThreads(threads),
                RequestMetrics.NONE)) {
            long before = direct.getMemoryUsed();
            List<CompletableFuture<ByteBuffer>> reads = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                reads.add(reader.readRangeAsync("large.bin", ByteRange.of(i, size - threads)));
            }
            for (CompletableFuture<ByteBuffer> read : reads) {
                assertThat(read.join().remaining()).isEqualTo(size - threads);
            }

            assertThat(direct.getMemoryUsed() - before).as("direct memory the reads took and kept")
                    .isLessThanOrEqualTo((long) threads * SlicedIo.SLICE_BYTES);
        }
    }

    // ---- threads, metrics, lifecycle ---------------------------------------------------------------------

    @Test
    void readsRunOnNamedDaemonThreadsAndStopAtClose() {
        backend.put("x", new byte[10]);

        assertThat(backend.readRangeAsync("x", ByteRange.of(0, 10)).join().remaining()).isEqualTo(10);
        assertThat(Thread.getAllStackTraces().keySet())
                .filteredOn(thread -> thread.getName().matches("layoutbench-file-io-\\d+"))
                .isNotEmpty()
                .allMatch(Thread::isDaemon);

        ObjectBackend view = backend.withMetrics(RequestMetrics.NONE);
        view.close();
        assertThat(backend.size("x")).isEqualTo(10);
        backend.close();
        assertThatThrownBy(() -> backend.readRange("x", ByteRange.of(0, 1)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
        assertThatThrownBy(() -> view.size("x")).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void countsOneRequestPerOperationAndListsInPages() {
        for (int i = 0; i < 1001; i++) {
            backend.put("p/" + (i % 2) + "/" + i, new byte[1]);
        }
        QueryMetrics metrics = new QueryMetrics();
        try (ObjectBackend metered = backend.withMetrics(metrics)) {

            metered.readAll("p/0/0");
            metered.size("p/0/0");
            metered.put("q", TestBytes.stream("q", 200_000), 200_000);
            metered.delete("q");
            try (Stream<ObjectInfo> listed = metered.list("p/")) {
                assertThat(listed.count()).isEqualTo(1001);
            }
            try (Stream<ObjectInfo> listed = metered.list("none/")) {
                assertThat(listed.count()).isZero();
            }

            MetricsSnapshot s = metrics.snapshot();
            assertThat(s.requests()).containsExactlyInAnyOrderEntriesOf(Map.of(RequestKind.GET, 1L,
                    RequestKind.HEAD, 1L, RequestKind.PUT, 1L, RequestKind.DELETE, 1L, RequestKind.LIST, 3L));
            assertThat(s.bytesReceived()).isEqualTo(1);
            assertThat(s.bytesSent()).isEqualTo(200_000);
        }
    }

    @Test
    void puttingAMissingFileFailsNamingIt() {
        Path missing = temp.resolve("no-such-file");

        assertThatThrownBy(() -> backend.put("k", missing))
                .isInstanceOf(UncheckedIOException.class).hasMessageContaining(missing.toString());
        assertThat(backend.exists("k")).isFalse();
    }

    // ---- provider and discovery --------------------------------------------------------------------------

    @Test
    void openedFromFileUrisWithOrWithoutSlashes() {
        Path dir = temp.resolve("opened").toAbsolutePath();
        try (ObjectBackend single = ObjectBackends.open("file:" + dir);
             ObjectBackend triple = ObjectBackends.open("file://" + dir)) {
            single.put("k", new byte[] {7});

            assertThat(single).isInstanceOf(FileBackend.class);
            assertThat(((FileBackend) single).root()).isEqualTo(dir);
            assertThat(triple.readAll("k").get()).isEqualTo((byte) 7);
        }
    }

    @Test
    void providerReadsPropertiesAndRejectsBadUris() {
        FileBackendProvider provider = new FileBackendProvider();
        URI uri = temp.resolve("props").toUri();
        try (FileBackend opened = (FileBackend) provider.open(uri, Map.of("ioThreads", "3", "fsync", "false"),
                RequestMetrics.NONE)) {
            assertThat(opened.options()).isEqualTo(new FileBackend.Options(3, false));
        }

        assertThatThrownBy(() -> provider.open(uri, Map.of("threads", "3"), RequestMetrics.NONE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("threads").hasMessageContaining("supported: [fsync, ioThreads]");
        assertThatThrownBy(() -> provider.open(uri, Map.of("ioThreads", "many"), RequestMetrics.NONE))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ioThreads");
        assertThatThrownBy(() -> provider.open(uri, Map.of("fsync", "yes"), RequestMetrics.NONE))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("fsync");
        assertThatThrownBy(() -> ObjectBackends.open("file:relative/dir"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("file:relative/dir");
        assertThatThrownBy(() -> ObjectBackends.open("file://host/share"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("host");
    }

    @Test
    void serviceLoaderFindsTheFileAndMemoryProviders() {
        assertThat(ObjectBackends.schemes()).contains("file", "mem");
        try (ObjectBackend memory = ObjectBackends.open("mem:x")) {
            assertThat(memory).isInstanceOf(MemoryBackend.class);
            assertThat(memory.uri()).isEqualTo(URI.create("mem:x"));
        }
        assertThatThrownBy(() -> ObjectBackends.open("ftp://x"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'ftp'").hasMessageContaining("schemes found: file, mem");
    }

    private List<ObjectInfo> list(String prefix) {
        try (Stream<ObjectInfo> listed = backend.list(prefix)) {
            return listed.collect(Collectors.toList());
        }
    }

    private static List<Path> filesBelow(Path directory) throws IOException {
        try (Stream<Path> walk = Files.walk(directory)) {
            return walk.filter(Files::isRegularFile).sorted().collect(Collectors.toList());
        }
    }
}
