package io.layoutbench.datasets.image;

import static io.layoutbench.datasets.image.TestImages.encode;
import static io.layoutbench.datasets.image.TestImages.insertAfterSoi;
import static io.layoutbench.datasets.image.TestImages.segment;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ImageHeadersTest {

    @TempDir
    Path dir;

    @ParameterizedTest
    @CsvSource({
            "jpeg, JPEG, 500, 375",
            "jpeg, JPEG, 1, 1",
            "jpeg, JPEG, 3001, 17",
            "png, PNG, 375, 500",
            "png, PNG, 1, 1",
            "gif, GIF, 640, 427",
            "bmp, BMP, 333, 500",
            "bmp, BMP, 1, 2",
    })
    void readsDimensionsOfRealImageFiles(String writer, ImageFormat format, int width, int height) throws IOException {
        Path file = dir.resolve("image." + writer);
        Files.write(file, encode(writer, width, height));

        assertThat(ImageHeaders.read(file)).isEqualTo(new ImageHeader(format, width, height));
    }

    @Test
    void readsProgressiveJpegs() {
        assertThat(ImageHeaders.read(TestImages.progressiveJpeg(123, 45), "progressive.jpg"))
                .isEqualTo(new ImageHeader(ImageFormat.JPEG, 123, 45));
    }

    @Test
    void skipsJpegSegmentsByLengthAndFillBytes() {
        byte[] jpeg = encode("jpeg", 640, 480);
        // An Exif-sized APP1 full of 0xFF, a comment, DHT/JPG/DAC markers that share the SOF range, then a marker
        // preceded by fill bytes.
        byte[] withSegments = insertAfterSoi(jpeg,
                segment(0xE1, 30_000, 0xFF),
                segment(0xFE, 10, 'x'),
                segment(0xC4, 20, 0),
                segment(0xC8, 3, 0),
                segment(0xCC, 2, 0),
                new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF},
                segment(0xE2, 4, 0xC0));

        assertThat(ImageHeaders.read(withSegments, "exif.jpg")).isEqualTo(new ImageHeader(ImageFormat.JPEG, 640, 480));
    }

    @Test
    void readsEverySofVariant() {
        for (int marker : new int[] {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}) {
            byte[] jpeg = {(byte) 0xFF, (byte) 0xD8, (byte) 0xFF, (byte) marker, 0x00, 0x0B, 0x08, 0x01, 0x2C, 0x02,
                    0x58, 0x01, 0x01, 0x11, 0x00};
            assertThat(ImageHeaders.read(jpeg, "sof.jpg")).as("SOF marker %02X", marker)
                    .isEqualTo(new ImageHeader(ImageFormat.JPEG, 600, 300));
        }
    }

    @Test
    void readsWebpHeaders() {
        assertThat(ImageHeaders.read(TestImages.webpLossy(300, 200), "lossy.webp"))
                .isEqualTo(new ImageHeader(ImageFormat.WEBP, 300, 200));
        assertThat(ImageHeaders.read(TestImages.webpLossless(16_384, 1), "lossless.webp"))
                .isEqualTo(new ImageHeader(ImageFormat.WEBP, 16_384, 1));
        assertThat(ImageHeaders.read(TestImages.webpExtended(70_000, 5), "extended.webp"))
                .isEqualTo(new ImageHeader(ImageFormat.WEBP, 70_000, 5));
    }

    @Test
    void readsTopDownAndOs2Bitmaps() {
        byte[] bmp = encode("bmp", 40, 30);
        ByteBuffer.wrap(bmp).order(ByteOrder.LITTLE_ENDIAN).putInt(22, -30);
        assertThat(ImageHeaders.read(bmp, "top-down.bmp")).isEqualTo(new ImageHeader(ImageFormat.BMP, 40, 30));

        ByteBuffer core = ByteBuffer.allocate(26).order(ByteOrder.LITTLE_ENDIAN);
        core.put((byte) 'B').put((byte) 'M').putInt(26).putInt(0).putInt(26).putInt(12).putShort((short) 40000)
                .putShort((short) 7);
        assertThat(ImageHeaders.read(core.array(), "os2.bmp")).isEqualTo(new ImageHeader(ImageFormat.BMP, 40000, 7));
    }

    @Test
    void readsFromAStreamOnlyAsFarAsTheHeader() throws IOException {
        byte[] png = encode("png", 20, 10);
        InputStream in = new ByteArrayInputStream(png);

        assertThat(ImageHeaders.read(in, "stream.png")).isEqualTo(new ImageHeader(ImageFormat.PNG, 20, 10));
        assertThat(in.available()).isGreaterThan(png.length - 40);
    }

    @Test
    void bufferPositionIsUnchanged() {
        ByteBuffer buffer = ByteBuffer.wrap(encode("gif", 5, 6));
        ImageHeaders.read(buffer, "a.gif");
        assertThat(buffer.position()).isZero();
    }

    // --- errors ----------------------------------------------------------------------------------------------------

    @Test
    void truncatedJpegNamesFileAndOffset() throws IOException {
        byte[] jpeg = insertAfterSoi(encode("jpeg", 64, 64), segment(0xE1, 5_000, 0));
        Path file = dir.resolve("cut.jpg");
        Files.write(file, Arrays.copyOf(jpeg, 1_000));

        assertThatThrownBy(() -> ImageHeaders.read(file))
                .isInstanceOf(ImageHeaderException.class)
                .hasMessageContaining(file.toString())
                .hasMessageContaining("at offset 6")
                .hasMessageContaining("truncated JPEG header")
                .hasMessageContaining("segment FFE1")
                .satisfies(e -> assertThat(((ImageHeaderException) e).offset()).isEqualTo(6));
    }

    @Test
    void jpegCutInsideTheFrameHeader() {
        byte[] jpeg = {(byte) 0xFF, (byte) 0xD8, (byte) 0xFF, (byte) 0xC0, 0x00, 0x11, 0x08, 0x01};
        assertThatThrownBy(() -> ImageHeaders.read(jpeg, "sof-cut.jpg"))
                .isInstanceOf(ImageHeaderException.class)
                .hasMessageContaining("sof-cut.jpg at offset 7")
                .hasMessageContaining("frame height");
    }

    @Test
    void jpegWithGarbageWhereAMarkerShouldBe() {
        byte[] jpeg = {(byte) 0xFF, (byte) 0xD8, (byte) 0xFF, (byte) 0xE0, 0x00, 0x04, 0x00, 0x00, 0x12, 0x34};
        assertThatThrownBy(() -> ImageHeaders.read(jpeg, "garbage.jpg"))
                .isInstanceOf(ImageHeaderException.class)
                .hasMessageContaining("garbage.jpg at offset 8")
                .hasMessageContaining("found 0x12");
    }

    @Test
    void jpegEndingOrScanningBeforeAFrameHeader() {
        byte[] eoi = {(byte) 0xFF, (byte) 0xD8, (byte) 0xFF, (byte) 0xD9};
        byte[] sos = {(byte) 0xFF, (byte) 0xD8, (byte) 0xFF, (byte) 0xDA, 0x00, 0x02};
        byte[] badLength = {(byte) 0xFF, (byte) 0xD8, (byte) 0xFF, (byte) 0xE0, 0x00, 0x01};
        byte[] dnl = {(byte) 0xFF, (byte) 0xD8, (byte) 0xFF, (byte) 0xC0, 0x00, 0x0B, 0x08, 0x00, 0x00, 0x02, 0x58};

        assertThatThrownBy(() -> ImageHeaders.read(eoi, "eoi.jpg")).hasMessageContaining("offset 2")
                .hasMessageContaining("end-of-image");
        assertThatThrownBy(() -> ImageHeaders.read(sos, "sos.jpg")).hasMessageContaining("start-of-scan");
        assertThatThrownBy(() -> ImageHeaders.read(badLength, "len.jpg")).hasMessageContaining("length 1");
        assertThatThrownBy(() -> ImageHeaders.read(dnl, "dnl.jpg")).hasMessageContaining("DNL");
    }

    @Test
    void malformedPngGifBmpWebp() {
        byte[] png = encode("png", 8, 8);
        byte[] notIhdr = png.clone();
        notIhdr[12] = 'I';
        notIhdr[13] = 'D';
        notIhdr[14] = 'A';
        notIhdr[15] = 'T';
        assertThatThrownBy(() -> ImageHeaders.read(notIhdr, "idat.png")).hasMessageContaining("offset 8")
                .hasMessageContaining("'IDAT', expected IHDR");
        assertThatThrownBy(() -> ImageHeaders.read(Arrays.copyOf(png, 20), "short.png"))
                .hasMessageContaining("truncated PNG header").hasMessageContaining("at offset 20")
                .hasMessageContaining("IHDR height");
        byte[] zeroWidth = png.clone();
        Arrays.fill(zeroWidth, 16, 20, (byte) 0);
        assertThatThrownBy(() -> ImageHeaders.read(zeroWidth, "zero.png")).hasMessageContaining("width is 0");

        byte[] gif = encode("gif", 8, 8);
        gif[4] = '8';
        assertThatThrownBy(() -> ImageHeaders.read(gif, "v88.gif")).hasMessageContaining("unknown GIF version");

        byte[] bmp = encode("bmp", 8, 8);
        bmp[14] = 99;
        assertThatThrownBy(() -> ImageHeaders.read(bmp, "dib.bmp")).hasMessageContaining("offset 14")
                .hasMessageContaining("DIB header size 99");

        assertThatThrownBy(() -> ImageHeaders.read(TestImages.riff("ALPH", new byte[10]), "alpha.webp"))
                .hasMessageContaining("offset 12").hasMessageContaining("'ALPH'");
        byte[] badCode = TestImages.webpLossy(10, 10);
        badCode[23] = 0;
        assertThatThrownBy(() -> ImageHeaders.read(badCode, "code.webp")).hasMessageContaining("offset 23")
                .hasMessageContaining("start code");
        byte[] badSignature = TestImages.webpLossless(10, 10);
        badSignature[20] = 0x2E;
        assertThatThrownBy(() -> ImageHeaders.read(badSignature, "sig.webp")).hasMessageContaining("VP8L signature");
        assertThatThrownBy(() -> ImageHeaders.read(Arrays.copyOf(TestImages.webpExtended(9, 9), 26), "x.webp"))
                .hasMessageContaining("truncated WEBP header");
    }

    @Test
    void unknownFormatsAreTheirOwnException() {
        byte[] text = "hello, world".getBytes(StandardCharsets.US_ASCII);
        byte[] wave = TestImages.riff("fmt ", new byte[16]);
        wave[8] = 'W';
        wave[9] = 'A';
        wave[10] = 'V';
        wave[11] = 'E';

        assertThatThrownBy(() -> ImageHeaders.read(text, "readme.txt"))
                .isInstanceOf(UnknownImageFormatException.class)
                .hasMessageContaining("readme.txt")
                .hasMessageContaining("68 65 6C 6C");
        assertThatThrownBy(() -> ImageHeaders.read(new byte[0], "empty.jpg"))
                .isInstanceOf(UnknownImageFormatException.class)
                .hasMessageContaining("empty");
        assertThatThrownBy(() -> ImageHeaders.read(wave, "sound.wav")).isInstanceOf(UnknownImageFormatException.class);
        assertThatThrownBy(() -> ImageHeaders.read(new byte[] {(byte) 0xFF}, "one.jpg"))
                .isInstanceOf(UnknownImageFormatException.class)
                .hasMessageContaining("only 1 bytes");
    }

    @Test
    void detectNeedsOnlyTheFirstBytes() {
        assertThat(ImageHeaders.detect(new byte[] {(byte) 0xFF, (byte) 0xD8}, "x")).isEqualTo(ImageFormat.JPEG);
        assertThat(ImageHeaders.detect(Arrays.copyOf(encode("png", 1, 1), 12), "x")).isEqualTo(ImageFormat.PNG);
        assertThat(ImageHeaders.detect(Arrays.copyOf(TestImages.webpLossy(1, 1), 12), "x"))
                .isEqualTo(ImageFormat.WEBP);
    }
}
