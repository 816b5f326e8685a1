package io.layoutbench.datasets.media;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;
import javax.sound.sampled.AudioFileFormat;
import javax.sound.sampled.AudioFormat;
import javax.sound.sampled.AudioInputStream;
import javax.sound.sampled.AudioSystem;

/**
 * Media files for tests: the tiny committed fixtures (made by ffmpeg, see
 * {@code src/test/resources/io/layoutbench/datasets/media/README.md}), WAV files written with javax.sound.sampled,
 * and large sparse MP4 files built around a fixture's movie box.
 */
public final class MediaFixtures {

    private MediaFixtures() {
    }

    /** The bytes of the committed fixture {@code name}, such as {@code tone.flac}. */
    public static byte[] bytes(String name) {
        try (InputStream in = MediaFixtures.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalArgumentException("No fixture " + name);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Writes {@code bytes} to {@code file}, creating its directories. */
    public static Path write(Path file, byte[] bytes) {
        try {
            Files.createDirectories(file.getParent());
            return Files.write(file, bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The first half of {@code bytes}: a file cut short. */
    public static byte[] firstHalf(byte[] bytes) {
        return Arrays.copyOf(bytes, bytes.length / 2);
    }

    /** A PCM WAV file of {@code frames} frames of a 440 Hz tone, written by the JDK's own WAV writer. */
    public static byte[] wav(int sampleRate, int channels, int bitsPerSample, int frames) {
        AudioFormat format = new AudioFormat(sampleRate, bitsPerSample, channels, bitsPerSample > 8, false);
        int bytesPerSample = bitsPerSample / 8;
        byte[] pcm = new byte[frames * channels * bytesPerSample];
        for (int frame = 0; frame < frames; frame++) {
            double value = Math.sin(2 * Math.PI * 440 * frame / sampleRate) * 0.5;
            for (int channel = 0; channel < channels; channel++) {
                int at = (frame * channels + channel) * bytesPerSample;
                if (bytesPerSample == 1) {
                    pcm[at] = (byte) (128 + value * 127); // 8-bit WAV is unsigned
                } else {
                    short sample = (short) (value * Short.MAX_VALUE);
                    pcm[at] = (byte) sample;
                    pcm[at + 1] = (byte) (sample >> 8);
                }
            }
        }
        try (AudioInputStream in = new AudioInputStream(new ByteArrayInputStream(pcm), format, frames)) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            AudioSystem.write(in, AudioFileFormat.Type.WAVE, out);
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The top-level boxes of an MP4 file, by their 32-bit sizes. */
    public static List<ByteBuffer> topLevelBoxes(byte[] mp4) {
        ByteBuffer data = ByteBuffer.wrap(mp4);
        List<ByteBuffer> boxes = new ArrayList<>();
        while (data.hasRemaining()) {
            int size = data.getInt(data.position());
            boxes.add(data.slice(data.position(), size));
            data.position(data.position() + size);
        }
        return boxes;
    }

    /** The top-level box of type {@code type} in {@code mp4}. */
    public static byte[] box(byte[] mp4, String type) {
        for (ByteBuffer box : topLevelBoxes(mp4)) {
            String name = new String(new byte[] {box.get(4), box.get(5), box.get(6), box.get(7)},
                    StandardCharsets.ISO_8859_1);
            if (name.equals(type)) {
                byte[] copy = new byte[box.remaining()];
                box.duplicate().get(copy);
                return copy;
            }
        }
        throw new IllegalArgumentException("No top-level box " + type);
    }

    /**
     * A sparse MP4 file: the fixture's {@code ftyp}, an {@code mdat} of {@code mediaBytes} bytes that are never
     * written (with a 64-bit size when {@code largeSize}), then the fixture's {@code moov}, as encoders that write
     * the movie box last lay a long video out.
     */
    public static Path sparseMp4(Path file, byte[] fixture, long mediaBytes, boolean largeSize) {
        byte[] ftyp = box(fixture, "ftyp");
        byte[] moov = box(fixture, "moov");
        try (RandomAccessFile out = new RandomAccessFile(file.toFile(), "rw")) {
            out.write(ftyp);
            if (largeSize) {
                out.writeInt(1);
                out.write("mdat".getBytes(StandardCharsets.ISO_8859_1));
                out.writeLong(16 + mediaBytes);
            } else {
                out.writeInt(Math.toIntExact(8 + mediaBytes));
                out.write("mdat".getBytes(StandardCharsets.ISO_8859_1));
            }
            out.seek(out.getFilePointer() + mediaBytes);
            out.write(moov);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return file;
    }

    /**
     * Bytes this process has read through read system calls so far ({@code rchar} of /proc/self/io), or empty where
     * the platform does not count them. Counts page-cache hits too, so a file's bytes show up even when cached.
     */
    public static OptionalLong bytesReadByProcess() {
        Path io = Path.of("/proc/self/io");
        if (!Files.isReadable(io)) {
            return OptionalLong.empty();
        }
        try {
            for (String line : Files.readAllLines(io)) {
                if (line.startsWith("rchar:")) {
                    return OptionalLong.of(Long.parseLong(line.substring("rchar:".length()).strip()));
                }
            }
        } catch (IOException | RuntimeException e) {
            return OptionalLong.empty();
        }
        return OptionalLong.empty();
    }
}
