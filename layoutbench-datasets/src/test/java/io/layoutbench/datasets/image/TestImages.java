package io.layoutbench.datasets.image;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageWriteParam;
import javax.imageio.ImageWriter;
import javax.imageio.stream.ImageOutputStream;

/** Real images written with javax.imageio, and hand-made WebP headers (the JDK cannot write WebP). */
public final class TestImages {

    private TestImages() {
    }

    /** An encoded image of the given size; {@code format} is an ImageIO writer name: jpeg, png, gif, bmp. */
    public static byte[] encode(String format, int width, int height) {
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        g.setColor(Color.ORANGE);
        g.fillRect(0, 0, width, height);
        g.setColor(Color.BLUE);
        g.drawLine(0, 0, width - 1, height - 1);
        g.dispose();
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            if (!ImageIO.write(image, format, out)) {
                throw new IllegalStateException("No ImageIO writer for " + format);
            }
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A progressive JPEG: its frame header is SOF2, not SOF0. */
    public static byte[] progressiveJpeg(int width, int height) {
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        ImageWriter writer = ImageIO.getImageWritersByFormatName("jpeg").next();
        try (ByteArrayOutputStream bytes = new ByteArrayOutputStream();
             ImageOutputStream out = ImageIO.createImageOutputStream(bytes)) {
            writer.setOutput(out);
            ImageWriteParam param = writer.getDefaultWriteParam();
            param.setProgressiveMode(ImageWriteParam.MODE_DEFAULT);
            writer.write(null, new IIOImage(image, null, null), param);
            out.flush();
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            writer.dispose();
        }
    }

    /** {@code jpeg} with {@code segments} inserted right after its SOI marker. */
    public static byte[] insertAfterSoi(byte[] jpeg, byte[]... segments) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(jpeg, 0, 2);
        for (byte[] segment : segments) {
            out.writeBytes(segment);
        }
        out.write(jpeg, 2, jpeg.length - 2);
        return out.toByteArray();
    }

    /** A JPEG marker segment with a length field and {@code payloadLength} bytes of {@code fill}. */
    public static byte[] segment(int marker, int payloadLength, int fill) {
        byte[] segment = new byte[4 + payloadLength];
        segment[0] = (byte) 0xFF;
        segment[1] = (byte) marker;
        segment[2] = (byte) ((payloadLength + 2) >>> 8);
        segment[3] = (byte) (payloadLength + 2);
        for (int i = 4; i < segment.length; i++) {
            segment[i] = (byte) fill;
        }
        return segment;
    }

    /** A lossy WebP (VP8 key frame) header; the scale bits are set to check they are ignored. */
    public static byte[] webpLossy(int width, int height) {
        ByteBuffer vp8 = le(10 + 8);
        vp8.put(new byte[] {0x10, 0x02, 0x00}); // frame tag: key frame, version 0, shown
        vp8.put(new byte[] {(byte) 0x9D, 0x01, 0x2A});
        vp8.putShort((short) (width | 0x4000));
        vp8.putShort((short) (height | 0x8000));
        return riff("VP8 ", vp8.array());
    }

    /** A lossless WebP (VP8L) header. */
    public static byte[] webpLossless(int width, int height) {
        ByteBuffer vp8l = le(5 + 8);
        vp8l.put((byte) 0x2F);
        vp8l.putInt((width - 1) | (height - 1) << 14);
        return riff("VP8L", vp8l.array());
    }

    /** An extended WebP (VP8X) header with the canvas size. */
    public static byte[] webpExtended(int width, int height) {
        ByteBuffer vp8x = le(10);
        vp8x.put((byte) 0x10).put(new byte[3]);
        put24(vp8x, width - 1);
        put24(vp8x, height - 1);
        return riff("VP8X", vp8x.array());
    }

    /** A RIFF WEBP file with one chunk. */
    public static byte[] riff(String chunk, byte[] payload) {
        ByteBuffer file = le(12 + 8 + payload.length);
        file.put("RIFF".getBytes(StandardCharsets.US_ASCII)).putInt(4 + 8 + payload.length);
        file.put("WEBP".getBytes(StandardCharsets.US_ASCII));
        file.put(chunk.getBytes(StandardCharsets.US_ASCII)).putInt(payload.length).put(payload);
        return file.array();
    }

    private static ByteBuffer le(int size) {
        return ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
    }

    private static void put24(ByteBuffer buffer, int value) {
        buffer.put((byte) value).put((byte) (value >>> 8)).put((byte) (value >>> 16));
    }
}
