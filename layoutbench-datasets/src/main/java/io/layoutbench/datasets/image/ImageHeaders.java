package io.layoutbench.datasets.image;

import static java.util.Objects.requireNonNull;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.PushbackInputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads the format and pixel dimensions of an image from its header, without decoding it: JPEG (first SOFn frame
 * header, skipping APPn and other segments by their length), PNG (IHDR), GIF (logical screen), BMP (DIB header) and
 * WebP (VP8, VP8L or VP8X). Only the header is read, so a large JPEG with a small SOF costs a few hundred bytes of
 * I/O plus skips over metadata segments.
 *
 * <p>The format comes from the leading bytes, never from the file name. A file that matches no format raises
 * {@link UnknownImageFormatException}; a truncated or malformed header of a known format raises
 * {@link ImageHeaderException} naming the source and the byte offset.
 *
 * <pre>{@code
 * ImageHeader header = ImageHeaders.read(Path.of("train/n01440764/n01440764_10026.JPEG"));
 * System.out.println(header.format() + " " + header.width() + "x" + header.height());
 * }</pre>
 *
 * <p>Stateless and thread-safe.
 */
public final class ImageHeaders {

    /** Bytes that identify every supported format ({@code RIFF....WEBP} is the longest). */
    private static final int SIGNATURE_LENGTH = 12;
    private static final byte[] PNG_SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};

    private ImageHeaders() {
    }

    /** The header of an image file. */
    public static ImageHeader read(Path file) {
        requireNonNull(file, "file is null");
        try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 8192)) {
            return read(in, file.toString());
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read image header of " + file + ": " + e, e);
        }
    }

    /** The header of the image in the buffer's remaining bytes; the buffer's position is unchanged. */
    public static ImageHeader read(ByteBuffer data, String source) {
        requireNonNull(data, "data is null");
        try {
            return read(new BufferInputStream(data.duplicate()), source);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a buffer never fails to read
        }
    }

    /** The header of the image in {@code bytes}. */
    public static ImageHeader read(byte[] bytes, String source) {
        return read(ByteBuffer.wrap(bytes), source);
    }

    /**
     * The header of the image that {@code in} starts with. Reads only as far as the dimensions; the stream is left
     * after them and is not closed.
     *
     * @param source names the image in error messages, for example its path
     * @throws IOException if the stream fails (truncation is an {@link ImageHeaderException})
     */
    public static ImageHeader read(InputStream in, String source) throws IOException {
        requireNonNull(in, "in is null");
        requireNonNull(source, "source is null");
        PushbackInputStream pushback = new PushbackInputStream(in, SIGNATURE_LENGTH);
        byte[] signature = pushback.readNBytes(SIGNATURE_LENGTH);
        pushback.unread(signature);
        ImageFormat format = detect(signature, source);
        Reader reader = new Reader(pushback, source, format);
        switch (format) {
            case JPEG:
                return readJpeg(reader);
            case PNG:
                return readPng(reader);
            case GIF:
                return readGif(reader);
            case BMP:
                return readBmp(reader);
            case WEBP:
                return readWebp(reader);
            default:
                throw new AssertionError(format);
        }
    }

    /**
     * The format that {@code prefix} (a file's first bytes, 12 are enough) starts with.
     *
     * @throws UnknownImageFormatException if it is none of the supported formats
     */
    public static ImageFormat detect(byte[] prefix, String source) {
        int n = prefix.length;
        if (n == 0) {
            throw new UnknownImageFormatException(source, "the file is empty");
        }
        if (n >= 2 && u8(prefix, 0) == 0xFF && u8(prefix, 1) == 0xD8) {
            return ImageFormat.JPEG;
        }
        if (startsWith(prefix, PNG_SIGNATURE, Math.min(n, PNG_SIGNATURE.length)) && n >= 4) {
            return ImageFormat.PNG;
        }
        if (n >= 4 && prefix[0] == 'G' && prefix[1] == 'I' && prefix[2] == 'F' && prefix[3] == '8') {
            return ImageFormat.GIF;
        }
        if (n >= 2 && prefix[0] == 'B' && prefix[1] == 'M') {
            return ImageFormat.BMP;
        }
        if (n >= 12 && ascii(prefix, 0, 4).equals("RIFF") && ascii(prefix, 8, 4).equals("WEBP")) {
            return ImageFormat.WEBP;
        }
        StringBuilder hex = new StringBuilder();
        for (int i = 0; i < Math.min(n, 8); i++) {
            hex.append(String.format("%02X ", u8(prefix, i)));
        }
        throw new UnknownImageFormatException(source, "not a JPEG, PNG, GIF, BMP or WebP file (first bytes "
                + hex.toString().strip() + (n < 12 ? ", file has only " + n + " bytes" : "") + ")");
    }

    // --- JPEG ------------------------------------------------------------------------------------------------------

    private static ImageHeader readJpeg(Reader in) throws IOException {
        in.skip(2, "SOI marker");
        while (true) {
            long markerOffset = in.position();
            int lead = in.u8("marker");
            if (lead != 0xFF) {
                throw in.malformed(markerOffset, String.format(
                        "expected a JPEG marker (0xFF) after the previous segment but found 0x%02X", lead));
            }
            int marker;
            do {
                marker = in.u8("marker"); // any number of 0xFF fill bytes may precede a marker
            } while (marker == 0xFF);
            long at = in.position() - 2;
            if (isStartOfFrame(marker)) {
                int length = in.u16be("SOF segment length");
                if (length < 8) {
                    throw in.malformed(at, "SOF segment length " + length + " is too short for a frame header");
                }
                in.u8("sample precision");
                int height = in.u16be("frame height");
                int width = in.u16be("frame width");
                if (height == 0) {
                    throw in.malformed(at, String.format("SOF%d frame height is 0 (defined later by a DNL marker), "
                            + "which is not supported", marker - 0xC0));
                }
                if (width == 0) {
                    throw in.malformed(at, String.format("SOF%d frame width is 0", marker - 0xC0));
                }
                return new ImageHeader(ImageFormat.JPEG, width, height);
            }
            switch (marker) {
                case 0x00:
                    throw in.malformed(at, "stuffed byte 0xFF00 outside entropy-coded data");
                case 0xD8:
                    throw in.malformed(at, "second start-of-image marker (FFD8) before any frame header");
                case 0xD9:
                    throw in.malformed(at, "end-of-image marker (FFD9) before any frame header (SOFn)");
                case 0xDA:
                    throw in.malformed(at, "start-of-scan marker (FFDA) before any frame header (SOFn)");
                default:
                    break;
            }
            if (marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7)) {
                continue; // TEM and RSTn stand alone, without a length
            }
            int length = in.u16be(String.format("length of segment FF%02X", marker));
            if (length < 2) {
                throw in.malformed(at, String.format("segment FF%02X has length %d, below the minimum of 2", marker,
                        length));
            }
            in.skip(length - 2, String.format("segment FF%02X of %d bytes", marker, length));
        }
    }

    /** SOF0-3, 5-7, 9-11, 13-15; C4 (DHT), C8 (reserved) and CC (DAC) share the range but are not frames. */
    private static boolean isStartOfFrame(int marker) {
        return marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC;
    }

    // --- PNG -------------------------------------------------------------------------------------------------------

    private static ImageHeader readPng(Reader in) throws IOException {
        byte[] signature = in.bytes(PNG_SIGNATURE.length, "PNG signature");
        if (!startsWith(signature, PNG_SIGNATURE, PNG_SIGNATURE.length)) {
            throw in.malformed(0, "damaged PNG signature (line-ending conversion?)");
        }
        long chunkOffset = in.position();
        long length = in.u32be("IHDR chunk length");
        String type = ascii(in.bytes(4, "first chunk type"), 0, 4);
        if (!type.equals("IHDR")) {
            throw in.malformed(chunkOffset, "first chunk is '" + type + "', expected IHDR");
        }
        if (length != 13) {
            throw in.malformed(chunkOffset, "IHDR chunk length is " + length + ", expected 13");
        }
        long width = in.u32be("IHDR width");
        long height = in.u32be("IHDR height");
        return new ImageHeader(ImageFormat.PNG, positive(in, chunkOffset + 8, "width", width),
                positive(in, chunkOffset + 12, "height", height));
    }

    // --- GIF -------------------------------------------------------------------------------------------------------

    private static ImageHeader readGif(Reader in) throws IOException {
        String version = ascii(in.bytes(6, "GIF signature"), 0, 6);
        if (!version.equals("GIF87a") && !version.equals("GIF89a")) {
            throw in.malformed(0, "unknown GIF version '" + version + "', expected GIF87a or GIF89a");
        }
        int width = in.u16le("logical screen width");
        int height = in.u16le("logical screen height");
        return new ImageHeader(ImageFormat.GIF, positive(in, 6, "logical screen width", width),
                positive(in, 8, "logical screen height", height));
    }

    // --- BMP -------------------------------------------------------------------------------------------------------

    private static ImageHeader readBmp(Reader in) throws IOException {
        in.skip(14, "BMP file header");
        long dibSize = in.u32le("DIB header size");
        if (dibSize == 12) {
            // OS/2 1.x BITMAPCOREHEADER: unsigned 16-bit sides.
            int width = in.u16le("BMP width");
            int height = in.u16le("BMP height");
            return new ImageHeader(ImageFormat.BMP, positive(in, 18, "width", width), positive(in, 20, "height",
                    height));
        }
        if (dibSize == 16 || dibSize == 40 || dibSize == 52 || dibSize == 56 || dibSize == 64 || dibSize == 108
                || dibSize == 124) {
            int width = (int) in.u32le("BMP width");
            int height = (int) in.u32le("BMP height");
            // A negative height marks a top-down bitmap; its size is the absolute value.
            long absHeight = Math.abs((long) height);
            return new ImageHeader(ImageFormat.BMP, positive(in, 18, "width", width), positive(in, 22, "height",
                    absHeight));
        }
        throw in.malformed(14, "unknown BMP DIB header size " + dibSize
                + " (expected 12, 16, 40, 52, 56, 64, 108 or 124)");
    }

    // --- WebP ------------------------------------------------------------------------------------------------------

    private static ImageHeader readWebp(Reader in) throws IOException {
        in.skip(12, "RIFF header");
        long chunkOffset = in.position();
        String chunk = ascii(in.bytes(4, "first WebP chunk type"), 0, 4);
        in.u32le("first WebP chunk size");
        switch (chunk) {
            case "VP8 ": {
                int tag = in.u8("VP8 frame tag");
                in.skip(2, "VP8 frame tag");
                if ((tag & 1) != 0) {
                    throw in.malformed(chunkOffset + 8, "VP8 bitstream does not start with a key frame");
                }
                long codeOffset = in.position();
                byte[] code = in.bytes(3, "VP8 start code");
                if (u8(code, 0) != 0x9D || u8(code, 1) != 0x01 || u8(code, 2) != 0x2A) {
                    throw in.malformed(codeOffset, String.format("VP8 start code is %02X %02X %02X, expected 9D 01 2A",
                            u8(code, 0), u8(code, 1), u8(code, 2)));
                }
                // The top two bits of each side are an upscaling hint, not part of the size.
                int width = in.u16le("VP8 width") & 0x3FFF;
                int height = in.u16le("VP8 height") & 0x3FFF;
                return new ImageHeader(ImageFormat.WEBP, positive(in, codeOffset + 3, "VP8 width", width),
                        positive(in, codeOffset + 5, "VP8 height", height));
            }
            case "VP8L": {
                long signatureOffset = in.position();
                int signature = in.u8("VP8L signature");
                if (signature != 0x2F) {
                    throw in.malformed(signatureOffset, String.format("VP8L signature is 0x%02X, expected 0x2F",
                            signature));
                }
                long bits = in.u32le("VP8L image size");
                int width = (int) (bits & 0x3FFF) + 1;
                int height = (int) ((bits >>> 14) & 0x3FFF) + 1;
                return new ImageHeader(ImageFormat.WEBP, width, height);
            }
            case "VP8X": {
                in.skip(4, "VP8X flags");
                int width = in.u24le("VP8X canvas width") + 1;
                int height = in.u24le("VP8X canvas height") + 1;
                return new ImageHeader(ImageFormat.WEBP, width, height);
            }
            default:
                throw in.malformed(chunkOffset, "first WebP chunk is '" + chunk + "', expected 'VP8 ', 'VP8L' or "
                        + "'VP8X'");
        }
    }

    // --- helpers ---------------------------------------------------------------------------------------------------

    private static int positive(Reader in, long offset, String what, long value) {
        if (value < 1 || value > Integer.MAX_VALUE) {
            throw in.malformed(offset, what + " is " + value + ", expected 1 to " + Integer.MAX_VALUE);
        }
        return (int) value;
    }

    private static boolean startsWith(byte[] data, byte[] prefix, int length) {
        if (data.length < length) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            if (data[i] != prefix[i]) {
                return false;
            }
        }
        return true;
    }

    private static int u8(byte[] data, int at) {
        return data[at] & 0xFF;
    }

    private static String ascii(byte[] data, int from, int length) {
        return new String(data, from, length, StandardCharsets.ISO_8859_1);
    }

    /** Reads a header while counting the offset, turning end of input into a truncation error. */
    private static final class Reader {
        private final InputStream in;
        private final String source;
        private final ImageFormat format;
        private long position;

        Reader(InputStream in, String source, ImageFormat format) {
            this.in = in;
            this.source = source;
            this.format = format;
        }

        long position() {
            return position;
        }

        int u8(String what) throws IOException {
            int b = in.read();
            if (b < 0) {
                throw truncated(what, 1, 0);
            }
            position++;
            return b;
        }

        int u16be(String what) throws IOException {
            byte[] b = bytes(2, what);
            return (b[0] & 0xFF) << 8 | (b[1] & 0xFF);
        }

        int u16le(String what) throws IOException {
            byte[] b = bytes(2, what);
            return (b[1] & 0xFF) << 8 | (b[0] & 0xFF);
        }

        int u24le(String what) throws IOException {
            byte[] b = bytes(3, what);
            return (b[2] & 0xFF) << 16 | (b[1] & 0xFF) << 8 | (b[0] & 0xFF);
        }

        long u32be(String what) throws IOException {
            byte[] b = bytes(4, what);
            return (long) (b[0] & 0xFF) << 24 | (b[1] & 0xFF) << 16 | (b[2] & 0xFF) << 8 | (b[3] & 0xFF);
        }

        long u32le(String what) throws IOException {
            byte[] b = bytes(4, what);
            return (long) (b[3] & 0xFF) << 24 | (b[2] & 0xFF) << 16 | (b[1] & 0xFF) << 8 | (b[0] & 0xFF);
        }

        byte[] bytes(int n, String what) throws IOException {
            byte[] b = in.readNBytes(n);
            if (b.length < n) {
                throw truncated(what, n, b.length); // reported at the field's start offset
            }
            position += n;
            return b;
        }

        void skip(long n, String what) throws IOException {
            try {
                in.skipNBytes(n);
            } catch (EOFException e) {
                throw new ImageHeaderException(source, position, "truncated " + format + " header: the file ends "
                        + "inside " + what + " (" + n + " bytes to skip)", e);
            }
            position += n;
        }

        ImageHeaderException truncated(String what, int wanted, int got) {
            return new ImageHeaderException(source, position, "truncated " + format + " header: the file ends while "
                    + "reading " + what + " (" + wanted + " bytes needed, " + got + " available)");
        }

        ImageHeaderException malformed(long offset, String reason) {
            return new ImageHeaderException(source, offset, "malformed " + format + " header: " + reason);
        }
    }

    /** An InputStream over a ByteBuffer, so buffers and files share one parser. */
    private static final class BufferInputStream extends InputStream {
        private final ByteBuffer buffer;

        BufferInputStream(ByteBuffer buffer) {
            this.buffer = buffer;
        }

        @Override
        public int read() {
            return buffer.hasRemaining() ? buffer.get() & 0xFF : -1;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (len == 0) {
                return 0;
            }
            if (!buffer.hasRemaining()) {
                return -1;
            }
            int n = Math.min(len, buffer.remaining());
            buffer.get(b, off, n);
            return n;
        }

        @Override
        public long skip(long n) {
            int k = (int) Math.max(0, Math.min(n, buffer.remaining()));
            buffer.position(buffer.position() + k);
            return k;
        }

        @Override
        public int available() {
            return buffer.remaining();
        }
    }
}
