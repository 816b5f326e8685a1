package io.layoutbench.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

import org.apache.commons.io.file.PathUtils;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fac put}, {@code get}, {@code fail} and {@code repair} on four directories under RS(4,2), with a 9 MB object
 * in two stripes (4 MiB fixed blocks): what {@code get} says about stripes and the nodes it read, and a node path that
 * cannot be opened blocking only what needs that node.
 */
class FacCommandsTest {

    @TempDir
    Path dir;

    private Path object;
    private String nodes;

    @BeforeEach
    void putAnObjectInTwoStripes() throws Exception {
        byte[] bytes = new byte[9_000_000];
        new Random(7).nextBytes(bytes);
        object = Files.write(dir.resolve("object.bin"), bytes);
        nodes = dir.resolve("n0") + "," + dir.resolve("n1") + "," + dir.resolve("n2") + "," + dir.resolve("n3");
        CliRunner put = fac("put", object.toString());
        assertThat(put.exitCode()).as(put.err()).isZero();
        assertThat(put.out()).contains("2 stripes");
    }

    @Test
    void getCountsTheStripesItDoesNotList() {
        CliRunner none = fac("get", "--key", "object.bin", "--verify", object.toString());
        assertThat(none.exitCode()).as(none.err()).isZero();
        assertThat(none.out()).contains("  2 stripes; --stripes 2 lists them with their blocks and nodes")
                .doesNotContain("more stripes").contains("identical to");

        CliRunner one = fac("get", "--key", "object.bin", "--stripes", "1");
        assertThat(one.out()).contains("  stripe 0, block size 4194304:").contains("  ... and 1 more stripe\n")
                .doesNotContain("stripe 1, block size");
    }

    @Test
    void aLostNodeIsNotListedAmongTheNodesRead() {
        assertThat(fac("fail", "--node", "2").exitCode()).isZero();

        CliRunner get = fac("get", "--key", "object.bin", "--verify", object.toString());

        assertThat(get.exitCode()).as(get.err()).isZero();
        String read = get.out().lines().filter(line -> line.startsWith("Read ")).findFirst().orElseThrow();
        assertThat(read.substring(read.indexOf(" from nodes ") + 12).split(", ")).doesNotContain("2").isNotEmpty();
        assertThat(get.out()).contains("  could not use node 2: block ").contains(": missing")
                .contains("identical to");
    }

    @Test
    void aNodeThatCannotBeOpenedBlocksOnlyWhatNeedsIt() throws Exception {
        assertThat(fac("fail", "--node", "1").exitCode()).isZero();
        Path broken = dir.resolve("n2");
        PathUtils.deleteDirectory(broken);
        Files.writeString(broken, "not a directory");
        String warning = "Warning: node 2 (" + broken.toUri() + ") unavailable: ";

        CliRunner get = fac("get", "--key", "object.bin", "--verify", object.toString());
        assertThat(get.exitCode()).as(get.err()).isZero();
        assertThat(get.out()).startsWith(warning).contains("identical to").contains("  could not use node 2: ");

        CliRunner repair = fac("repair", "--node", "1");
        assertThat(repair.exitCode()).as(repair.err()).isZero();
        assertThat(repair.out()).startsWith(warning).contains("Rebuilt node 1").doesNotContain("failures");

        CliRunner fail = fac("fail", "--node", "3");
        assertThat(fail.exitCode()).as(fail.err()).isZero();
        assertThat(fail.out()).contains("Node 3 (");

        // With node 3 lost as well, the rebuilt node 1 is needed: its blocks must be right.
        assertThat(fac("get", "--key", "object.bin", "--verify", object.toString()).out()).contains("identical to");

        CliRunner put = fac("put", object.toString());
        assertThat(put.exitCode()).isEqualTo(1);
        assertThat(put.errLines().get(0)).contains("on node 2 (").contains("unavailable: ")
                .doesNotContainPattern("[A-Z][A-Za-z]*Exception");
    }

    private CliRunner fac(String command, String... args) {
        String[] all = new String[args.length + 6];
        all[0] = "fac";
        all[1] = command;
        all[2] = "--nodes";
        all[3] = nodes;
        all[4] = "--code";
        all[5] = "RS(4,2)";
        System.arraycopy(args, 0, all, 6, args.length);
        return CliRunner.run(all);
    }
}
