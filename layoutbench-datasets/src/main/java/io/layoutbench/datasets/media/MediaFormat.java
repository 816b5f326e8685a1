package io.layoutbench.datasets.media;

import io.layoutbench.datasets.image.ImageFormat;
import io.layoutbench.datasets.image.ImageHeaders;
import io.layoutbench.datasets.image.UnknownImageFormatException;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The media formats {@link MediaProbe} recognises: by their leading bytes, or by file extension when those match
 * nothing. Formats with a {@link HeaderReader} have their header facts read; the others are recognised only.
 */
enum MediaFormat {
    JPEG(MediaType.IMAGE, "jpeg", ImageFacts::read, "jpg", "jpeg", "jpe"),
    PNG(MediaType.IMAGE, "png", ImageFacts::read, "png"),
    GIF(MediaType.IMAGE, "gif", ImageFacts::read, "gif"),
    BMP(MediaType.IMAGE, "bmp", ImageFacts::read, "bmp"),
    WEBP(MediaType.IMAGE, "webp", ImageFacts::read, "webp"),
    TIFF(MediaType.IMAGE, "tiff", null, "tif", "tiff"),
    HEIF(MediaType.IMAGE, "heif", null, "heic", "heif"),
    AVIF(MediaType.IMAGE, "avif", null, "avif"),

    WAV(MediaType.AUDIO, "wav", AudioHeaders::wav, "wav", "wave"),
    FLAC(MediaType.AUDIO, "flac", AudioHeaders::flac, "flac"),
    OGG_VORBIS(MediaType.AUDIO, "ogg", OggHeaders::vorbis, "ogg", "oga"),
    OPUS(MediaType.AUDIO, "opus", OggHeaders::opus, "opus"),
    MP3(MediaType.AUDIO, "mp3", AudioHeaders::mp3, "mp3"),
    /** An MP4 with an audio brand ({@code M4A}); whether it has a video track decides its type once read. */
    M4A(MediaType.AUDIO, "mp4", Mp4Headers::read, "m4a", "m4b"),
    AIFF(MediaType.AUDIO, "aiff", null, "aif", "aiff", "aifc"),
    /** Ogg holding neither Vorbis, Opus nor Theora (FLAC, Speex ...). */
    OGG_AUDIO(MediaType.AUDIO, "ogg", null),

    MP4(MediaType.VIDEO, "mp4", Mp4Headers::read, "mp4", "m4v"),
    MOV(MediaType.VIDEO, "mov", Mp4Headers::read, "mov", "qt"),
    AVI(MediaType.VIDEO, "avi", null, "avi"),
    MATROSKA(MediaType.VIDEO, "mkv", null, "mkv"),
    WEBM(MediaType.VIDEO, "webm", null, "webm"),
    OGG_VIDEO(MediaType.VIDEO, "ogg", null, "ogv");

    /** Reads the header facts of a file of a format, given its size; fails with {@link BadHeader} or any error. */
    @FunctionalInterface
    interface HeaderReader {
        MediaInfo read(Path file, long size, MediaFormat format) throws Exception;
    }

    private static final Map<String, MediaFormat> BY_EXTENSION = new HashMap<>();

    static {
        for (MediaFormat format : values()) {
            for (String extension : format.extensions) {
                if (BY_EXTENSION.put(extension, format) != null) {
                    throw new AssertionError("extension ." + extension + " is listed twice");
                }
            }
        }
    }

    private final MediaType type;
    private final String formatName;
    private final HeaderReader reader;
    private final String[] extensions;

    MediaFormat(MediaType type, String formatName, HeaderReader reader, String... extensions) {
        this.type = type;
        this.formatName = formatName;
        this.reader = reader;
        this.extensions = extensions;
    }

    MediaType type() {
        return type;
    }

    String formatName() {
        return formatName;
    }

    /** Whether {@link MediaProbe} reads this format's header facts. */
    boolean readable() {
        return reader != null;
    }

    MediaInfo read(Path file, long size) throws Exception {
        return reader.read(file, size, this);
    }

    /** The kind and format without facts. */
    MediaInfo withoutFacts() {
        return MediaInfo.of(type, formatName);
    }

    /** The format whose usual extension {@code extension} (lower case, no dot) is. */
    static Optional<MediaFormat> byExtension(String extension) {
        return Optional.ofNullable(BY_EXTENSION.get(extension));
    }

    /** The format that a file's first bytes ({@code prefix}, 64 or more unless the file is shorter) show. */
    static Optional<MediaFormat> byContent(byte[] prefix) {
        Optional<MediaFormat> image = image(prefix);
        if (image.isPresent()) {
            return image;
        }
        if (startsWith(prefix, 0, "II*\0") || startsWith(prefix, 0, "MM\0*")) {
            return Optional.of(TIFF);
        }
        if (startsWith(prefix, 0, "RIFF")) {
            if (startsWith(prefix, 8, "WAVE")) {
                return Optional.of(WAV);
            }
            if (startsWith(prefix, 8, "AVI ")) {
                return Optional.of(AVI);
            }
        }
        if (startsWith(prefix, 0, "FORM") && (startsWith(prefix, 8, "AIFF") || startsWith(prefix, 8, "AIFC"))) {
            return Optional.of(AIFF);
        }
        if (startsWith(prefix, 0, "fLaC")) {
            return Optional.of(FLAC);
        }
        if (startsWith(prefix, 0, "OggS")) {
            return Optional.of(ogg(prefix));
        }
        if (startsWith(prefix, 0, "ID3") || isMp3Frame(prefix)) {
            return Optional.of(MP3);
        }
        if (startsWith(prefix, 4, "ftyp")) {
            return Optional.of(isoBrand(prefix));
        }
        if (prefix.length >= 4 && (prefix[0] & 0xFF) == 0x1A && (prefix[1] & 0xFF) == 0x45
                && (prefix[2] & 0xFF) == 0xDF && (prefix[3] & 0xFF) == 0xA3) {
            // The EBML header names its document type near the start.
            String head = new String(prefix, 0, Math.min(prefix.length, 64), StandardCharsets.ISO_8859_1);
            return Optional.of(head.contains("webm") ? WEBM : MATROSKA);
        }
        return Optional.empty();
    }

    /** The lower-case extension of a file name without the dot, or "" when it has none. */
    static String extension(Path file) {
        Path name = file.getFileName();
        String text = name == null ? "" : name.toString();
        int dot = text.lastIndexOf('.');
        return dot <= 0 ? "" : text.substring(dot + 1).toLowerCase(Locale.ROOT);
    }

    private static Optional<MediaFormat> image(byte[] prefix) {
        ImageFormat format;
        try {
            format = ImageHeaders.detect(prefix, "prefix");
        } catch (UnknownImageFormatException e) {
            return Optional.empty();
        }
        switch (format) {
            case JPEG:
                return Optional.of(JPEG);
            case PNG:
                return Optional.of(PNG);
            case GIF:
                return Optional.of(GIF);
            case BMP:
                // "BM" alone is common in text; a bitmap file header also has two reserved 16-bit zeros.
                boolean reservedZero = prefix.length >= 10 && prefix[6] == 0 && prefix[7] == 0 && prefix[8] == 0
                        && prefix[9] == 0;
                return reservedZero ? Optional.of(BMP) : Optional.empty();
            case WEBP:
                return Optional.of(WEBP);
            default:
                throw new AssertionError(format);
        }
    }

    /** The codec of an Ogg file's first packet, which starts right after the first page's segment table. */
    private static MediaFormat ogg(byte[] prefix) {
        if (prefix.length < 27) {
            return OGG_AUDIO;
        }
        int packet = 27 + (prefix[26] & 0xFF);
        if (startsWith(prefix, packet, "\u0001vorbis")) {
            return OGG_VORBIS;
        }
        if (startsWith(prefix, packet, "OpusHead")) {
            return OPUS;
        }
        if (startsWith(prefix, packet, "\u0080theora")) {
            return OGG_VIDEO;
        }
        return OGG_AUDIO;
    }

    /** An ISO base media file by its major brand: QuickTime, an audio-only brand, an image, or else MP4. */
    private static MediaFormat isoBrand(byte[] prefix) {
        if (prefix.length < 12) {
            return MP4;
        }
        String brand = new String(prefix, 8, 4, StandardCharsets.ISO_8859_1);
        switch (brand) {
            case "qt  ":
                return MOV;
            case "M4A ":
            case "M4B ":
            case "M4P ":
            case "F4A ":
                return M4A;
            case "heic":
            case "heix":
            case "heim":
            case "heis":
            case "hevc":
            case "mif1":
            case "msf1":
                return HEIF;
            case "avif":
            case "avis":
                return AVIF;
            default:
                return MP4;
        }
    }

    /**
     * An MPEG audio Layer III frame header: 11 sync bits, a valid version, layer III, a bit rate index other than
     * "bad" and a valid sampling rate index.
     */
    private static boolean isMp3Frame(byte[] prefix) {
        if (prefix.length < 4) {
            return false;
        }
        int b1 = prefix[1] & 0xFF;
        int b2 = prefix[2] & 0xFF;
        boolean sync = (prefix[0] & 0xFF) == 0xFF && (b1 & 0xE0) == 0xE0;
        boolean version = ((b1 >> 3) & 3) != 1;
        boolean layer3 = ((b1 >> 1) & 3) == 1;
        return sync && version && layer3 && (b2 >> 4) != 15 && ((b2 >> 2) & 3) != 3;
    }

    private static boolean startsWith(byte[] data, int at, String ascii) {
        if (at < 0 || data.length < at + ascii.length()) {
            return false;
        }
        for (int i = 0; i < ascii.length(); i++) {
            if ((data[at + i] & 0xFF) != ascii.charAt(i)) {
                return false;
            }
        }
        return true;
    }
}
