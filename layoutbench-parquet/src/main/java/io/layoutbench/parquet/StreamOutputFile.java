package io.layoutbench.parquet;

import static java.util.Objects.requireNonNull;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;

/**
 * A Parquet {@link OutputFile} over a local file or over a caller's {@link OutputStream}, counting the position
 * itself. A caller's stream is flushed, not closed, when the writer finishes: whoever opened it closes it.
 */
final class StreamOutputFile implements OutputFile {

    private final String description;
    private final StreamOpener opener;

    @FunctionalInterface
    private interface StreamOpener {
        OutputStream open(boolean overwrite) throws IOException;
    }

    private StreamOutputFile(String description, StreamOpener opener) {
        this.description = description;
        this.opener = opener;
    }

    static StreamOutputFile of(Path file) {
        requireNonNull(file, "file is null");
        return new StreamOutputFile(file.toString(), overwrite -> new BufferedOutputStream(overwrite
                ? Files.newOutputStream(file)
                : Files.newOutputStream(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE), 1 << 16));
    }

    static StreamOutputFile of(OutputStream out, String description) {
        requireNonNull(out, "out is null");
        return new StreamOutputFile(description, overwrite -> new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                out.write(b);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                out.write(b, off, len);
            }

            @Override
            public void flush() throws IOException {
                out.flush();
            }

            @Override
            public void close() throws IOException {
                out.flush();
            }
        });
    }

    @Override
    public PositionOutputStream create(long blockSizeHint) throws IOException {
        return new Counting(opener.open(false));
    }

    @Override
    public PositionOutputStream createOrOverwrite(long blockSizeHint) throws IOException {
        return new Counting(opener.open(true));
    }

    /** No block alignment: objects in a store have no HDFS blocks, so no padding is written. */
    @Override
    public boolean supportsBlockSize() {
        return false;
    }

    @Override
    public long defaultBlockSize() {
        return 0;
    }

    @Override
    public String getPath() {
        return description;
    }

    @Override
    public String toString() {
        return description;
    }

    private static final class Counting extends PositionOutputStream {
        private final OutputStream out;
        private long position;

        Counting(OutputStream out) {
            this.out = out;
        }

        @Override
        public long getPos() {
            return position;
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
            position++;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
            position += len;
        }

        @Override
        public void flush() throws IOException {
            out.flush();
        }

        @Override
        public void close() throws IOException {
            out.close();
        }
    }
}
