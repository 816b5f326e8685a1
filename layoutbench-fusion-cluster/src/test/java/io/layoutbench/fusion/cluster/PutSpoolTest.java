package io.layoutbench.fusion.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.layoutbench.api.testing.TestBytes;
import io.layoutbench.backend.memory.MemoryBackend;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Semaphore;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A node's memory for puts is one budget: puts that do not fit in what is left go to files. */
class PutSpoolTest {

    @TempDir
    Path directory;

    @Test
    void putsBeyondTheSharedBudgetAreSpooledInFilesAndTheBudgetComesBack() throws Exception {
        Semaphore budget = new Semaphore(100_000);
        try (PutSpool first = PutSpool.create("a", 80_000, 1 << 20, budget, directory);
             PutSpool second = PutSpool.create("b", 80_000, 1 << 20, budget, directory)) {
            assertThat(first.inMemory()).isTrue();
            assertThat(second.inMemory()).as("the budget has 20,000 bytes left").isFalse();
            assertThat(budget.availablePermits()).isEqualTo(20_000);
        }
        assertThat(budget.availablePermits()).isEqualTo(100_000);
        try (var files = Files.list(directory)) {
            assertThat(files).isEmpty();
        }
    }

    @Test
    void aMemorySpoolGrowsAsBytesArriveAndStoresThemWhole() {
        Semaphore budget = new Semaphore(64 << 20);
        byte[] data = TestBytes.of("grown", (3 << 20) + 5);
        try (BufferAllocator allocator = new RootAllocator();
             ArrowBuf buf = allocator.buffer(data.length);
             MemoryBackend objects = new MemoryBackend();
             PutSpool spool = PutSpool.create("grown.bin", data.length, 8 << 20, budget, directory)) {
            buf.setBytes(0, data);
            for (int at = 0; at < data.length; at += 100_000) {
                spool.write(buf, at, Math.min(100_000, data.length - at));
            }
            spool.storeIn(objects);
            TestBytes.verify("grown", 0, objects.readAll("grown.bin"));
        }
    }
}
