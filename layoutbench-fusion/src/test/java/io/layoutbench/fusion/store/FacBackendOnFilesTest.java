package io.layoutbench.fusion.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.testing.FaultInjectingBackend;
import io.layoutbench.backend.file.FileBackend;
import io.layoutbench.fusion.FusionTestFiles;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * FAC over nine directories, whose reads complete on I/O threads in any order: losses and damage within what the code
 * survives read back right, and beyond it fail at once (never hang, never return bytes).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FacBackendOnFilesTest {

    private static final String KEY = "l3.parquet";
    private static final byte[] TABLE = FusionTestFiles.l3Table(40, 128 << 10, 16 << 10);

    @TempDir
    Path root;
    private final List<FaultInjectingBackend> nodes = new ArrayList<>();
    private FacBackend fac;
    private FacManifest manifest;

    @BeforeEach
    void store() {
        for (int i = 0; i < 9; i++) {
            nodes.add(FaultInjectingBackend.wrap(new FileBackend(root.resolve("node-" + i))));
        }
        fac = FacBackend.create(nodes, FacOptions.builder().checksumUnit(8 << 10).build(), true);
        fac.put(KEY, TABLE);
        manifest = fac.manifest(KEY);
    }

    @AfterEach
    void close() {
        fac.close();
    }

    @Test
    void threeLostNodesAndADamagedBlockOnAFourthFailNamingTheStripe() {
        FacManifest.Block damaged = manifest.block(0, 0);
        corrupt(damaged);
        List<Integer> lost = new ArrayList<>();
        for (FacManifest.Block block : manifest.stripes().get(0).blocks()) {
            if (block.node() != damaged.node() && lost.size() < 3) {
                lost.add(block.node());
                nodes.get(block.node()).down();
            }
        }

        assertThatThrownBy(() -> fac.readAll(KEY)).isInstanceOf(StripeUnavailableException.class)
                .hasMessageContaining("stripe 0").hasMessageContaining("checksum");
    }

    @Test
    void twoLostNodesAndADamagedBlockReadBackRight() {
        corrupt(manifest.block(0, 0));
        nodes.get(manifest.block(0, 3).node()).down();
        nodes.get(manifest.block(0, 7).node()).down();

        assertThat(FacBackendFailureTest.bytes(fac.readAll(KEY))).isEqualTo(TABLE);
        assertThat(FacBackendFailureTest.bytes(fac.readRange(KEY, ByteRange.of(10_000, 300_000))))
                .isEqualTo(java.util.Arrays.copyOfRange(TABLE, 10_000, 310_000));
    }

    @Test
    void everyFourLostNodesFail() {
        int failures = 0;
        for (int a = 0; a < 9; a += 2) {
            for (int b = a + 1; b < 9; b += 3) {
                for (int c = b + 1; c < 9; c++) {
                    int d = (c + 1) % 9;
                    if (d == a || d == b) {
                        continue;
                    }
                    for (int node : new int[] {a, b, c, d}) {
                        nodes.get(node).down();
                    }
                    assertThatThrownBy(() -> fac.readAll(KEY)).isInstanceOf(StripeUnavailableException.class);
                    failures++;
                    for (int node : new int[] {a, b, c, d}) {
                        nodes.get(node).up();
                    }
                }
            }
        }
        assertThat(failures).isGreaterThan(10);
    }

    /**
     * A stream is copied to a spool before it is coded (the coder reads at random); a file is coded from the file
     * itself. With a memory spool one byte short of the object (room for a stripe's parity, not for the object) and
     * a spool directory that cannot be created, a stream put fails and a file put of the same bytes stores them.
     */
    @Test
    void aFileIsCodedFromTheFileWithNoSpooledCopy() throws Exception {
        Path notADirectory = java.nio.file.Files.write(root.resolve("a-file"), new byte[1]);
        Path source = java.nio.file.Files.write(root.resolve("table.parquet"), TABLE);
        try (FacBackend noSpool = FacBackend.create(nodes, FacOptions.builder().checksumUnit(8 << 10)
                .memorySpoolLimit(TABLE.length - 1).tempDirectory(notADirectory.resolve("spools")).build(), true)) {
            assertThatThrownBy(() -> noSpool.put("streamed", new java.io.ByteArrayInputStream(TABLE), TABLE.length))
                    .hasMessageContaining("Cannot create a temporary file");

            noSpool.put("from-file", source);

            assertThat(FacBackendFailureTest.bytes(noSpool.readAll("from-file"))).isEqualTo(TABLE);
            assertThat(noSpool.exists("streamed")).isFalse();
        }
    }

    private void corrupt(FacManifest.Block block) {
        String blockKey = "blocks/" + KEY + ".fac/" + manifest.generation() + "-s" + block.stripe() + "-b"
                + block.index();
        byte[] bytes = FacBackendFailureTest.bytes(nodes.get(block.node()).readAll(blockKey));
        bytes[bytes.length / 3] ^= 0x40;
        nodes.get(block.node()).put(blockKey, bytes);
    }
}
