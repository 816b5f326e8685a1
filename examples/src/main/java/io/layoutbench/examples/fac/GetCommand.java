package io.layoutbench.examples.fac;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.internal.SlicedIo;
import io.layoutbench.fusion.store.FacBackend;
import io.layoutbench.fusion.store.FacManifest;
import io.layoutbench.fusion.store.FacStatistics;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import java.util.zip.CRC32C;

/** {@code fac get}: reads an object or a range of it, from data blocks or, with nodes down, by decoding. */
@Command(name = "get", mixinStandardHelpOptions = true,
        description = "Read an object, or --offset/--length of it: only the data blocks that hold the range while "
                + "all nodes are up; decoding only the needed units when nodes are down or blocks are damaged. "
                + "Prints what was read and decoded.")
final class GetCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    NodeOptions nodes = new NodeOptions();

    @Option(names = "--key", required = true, description = "Object key.")
    String key;

    @Option(names = "--offset", defaultValue = "0", description = "First byte (default: ${DEFAULT-VALUE}).")
    long offset;

    @Option(names = "--length", defaultValue = "-1", description = "Bytes to read (default: to the end).")
    long length;

    @Option(names = "--out", paramLabel = "FILE", description = "Write the bytes read to FILE.")
    Path outFile;

    @Option(names = "--verify", paramLabel = "FILE",
            description = "Compare the bytes read with the same range of FILE (the original).")
    Path verify;

    @Option(names = "--stripes", defaultValue = "0",
            description = "Also print the object's first N stripes and their nodes (default: ${DEFAULT-VALUE}).")
    int stripesShown;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        try (FacBackend fac = nodes.store()) {
            NodeOptions.unavailable(fac.nodes()).forEach(line -> out.println("Warning: " + line));
            FacManifest manifest = fac.manifest(key);
            long end = length < 0 ? manifest.objectSize() : offset + length;
            ByteRange range = ByteRange.between(offset, end);
            long started = System.nanoTime();
            ByteBuffer bytes = fac.readRange(key, range);
            double millis = (System.nanoTime() - started) / 1e6;
            FacStatistics stats = fac.statistics();
            CRC32C crc = new CRC32C();
            crc.update(bytes.duplicate());
            // The nodes that served the read, not those that hold the range: a lost node holds it but is not read.
            out.printf(Locale.ROOT, "Read %s of %s (%d bytes, CRC32C %08x) in %.1f ms from nodes %s%n", range, key,
                    bytes.remaining(), crc.getValue(), millis, stats.nodesRead().stream()
                            .map(String::valueOf).collect(Collectors.joining(", ")));
            stats.nodesUnusable().forEach((node, why) -> out.printf(Locale.ROOT, "  could not use node %d: %s%n",
                    node, why));
            out.printf(Locale.ROOT, "  %s%n", stats);
            out.println(stats.degradedReads() == 0 ? "  all data blocks read directly: nothing decoded"
                    : "  degraded: " + stats.degradedReads() + " parts rebuilt from other blocks of their stripes");
            printStripes(out, manifest, stripesShown);
            if (outFile != null) {
                try (FileChannel channel = FileChannel.open(outFile, StandardOpenOption.CREATE,
                        StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
                    ByteBuffer copy = bytes.duplicate();
                    while (copy.hasRemaining()) {
                        SlicedIo.write(channel, copy);   // not whole: see SlicedIo
                    }
                }
                out.println("  written to " + outFile);
            }
            if (verify != null) {
                byte[] expected = new byte[bytes.remaining()];
                try (FileChannel channel = FileChannel.open(verify, StandardOpenOption.READ)) {
                    ByteBuffer target = ByteBuffer.wrap(expected);
                    long position = offset;
                    while (target.hasRemaining() && SlicedIo.read(channel, target, position) > 0) {
                        position = offset + target.position();
                    }
                }
                boolean same = ByteBuffer.wrap(expected).equals(bytes.duplicate());
                out.println(same ? "  identical to " + verify : "  DIFFERS from " + verify);
                return same ? 0 : 1;
            }
        }
        return 0;
    }

    static void printStripes(PrintWriter out, FacManifest manifest, int limit) {
        int count = manifest.stripes().size();
        int shown = Math.min(limit, count);
        if (shown == 0) {
            out.printf(Locale.ROOT, "  %s; --stripes %d lists %s with %s blocks and nodes%n", stripes(count), count,
                    count == 1 ? "it" : "them", count == 1 ? "its" : "their");
            return;
        }
        for (int s = 0; s < shown; s++) {
            FacManifest.Stripe stripe = manifest.stripes().get(s);
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "  stripe %d, block size %d:",
                    s, stripe.blockSize()));
            for (FacManifest.Block block : stripe.blocks()) {
                line.append(String.format(Locale.ROOT, " %s%d@node%d=%d", block.index() < manifest.code().dataBlocks()
                        ? "d" : "p", block.index(), block.node(), block.length()));
            }
            out.println(line);
        }
        if (shown < count) {
            out.printf(Locale.ROOT, "  ... and %d more %s%n", count - shown, count - shown == 1 ? "stripe" : "stripes");
        }
    }

    private static String stripes(int count) {
        return count + (count == 1 ? " stripe" : " stripes");
    }
}
