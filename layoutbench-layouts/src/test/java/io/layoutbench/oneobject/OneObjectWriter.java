package io.layoutbench.oneobject;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.layouts.common.GenerationalDatasetWriter;
import io.layoutbench.layouts.common.SampleChecksum;
import io.layoutbench.layouts.common.TempFiles;

import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/** Writes the one object: samples into a local file as they come, the metadata block and trailer at commit. */
final class OneObjectWriter extends GenerationalDatasetWriter {

    private final Path file;
    private final OutputStream out;
    private final ByteArrayOutputStream block = new ByteArrayOutputStream();

    OneObjectWriter(ObjectBackend backend, String prefix, MetadataSchema schema) {
        super(OneObjectLayout.NAME, OneObjectLayout.FORMAT_VERSION, backend, prefix, schema);
        this.file = TempFiles.create("layoutbench-one-object-", ".bin");
        try {
            this.out = new BufferedOutputStream(Files.newOutputStream(file));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    protected void addSample(Sample sample, String key, int[] checksums) {
        int crc32c = checksums[0];   // the example layout stores samples of one payload field
        try {
            Channels.newChannel(out).write(sample.data().duplicate());
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot buffer sample " + key, e);
        }
        block.writeBytes(OneObjectFormat.entry(sample.metadata(), sample.size(), crc32c));
    }

    @Override
    protected Map<String, String> finish() {
        try {
            block.writeTo(out);
            out.write(OneObjectFormat.trailer(block.size()));
            out.close();
            // The manifest records the checksum of the metadata block, which a query trusts: the dataset checks it.
            String blockCrc = String.format("%08x", SampleChecksum.of(java.nio.ByteBuffer.wrap(block.toByteArray())));
            return Map.of("object.key", putObject(OneObjectFormat.OBJECT, file), "metadata.crc32c", blockCrc);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            TempFiles.delete(file);
        }
    }

    @Override
    protected void abandon() {
        try {
            out.close();
        } catch (IOException ignored) {
            // a temporary file, deleted next
        } finally {
            TempFiles.delete(file);
        }
    }
}
