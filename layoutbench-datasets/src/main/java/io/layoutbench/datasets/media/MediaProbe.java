package io.layoutbench.datasets.media;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Tells what a local file holds and reads the facts its headers give, cheaply: a few KB near the start (and, for
 * Ogg, the last page), never the pictures or sound, so a 10 GB video costs the same as a 10 KB one.
 *
 * <p>The kind and format come from the file's first bytes; only when those match no known format does the
 * extension decide, and then from a known text extension, valid UTF-8 in the first 8 KiB, or else
 * {@link MediaType#OTHER}. Facts by format:
 * <table>
 *   <caption>What is read</caption>
 *   <tr><th>format</th><th>facts</th><th>read by</th></tr>
 *   <tr><td>{@code jpeg}, {@code png}, {@code gif}, {@code bmp}, {@code webp}</td><td>width, height</td>
 *       <td>{@link io.layoutbench.datasets.image.ImageHeaders}</td></tr>
 *   <tr><td>{@code wav}, {@code flac}, {@code mp3}</td>
 *       <td>duration, sample rate, channels</td><td>jaudiotagger's stream-information readers (no tags)</td></tr>
 *   <tr><td>{@code ogg} (Vorbis)</td><td>duration, sample rate, channels</td><td>jaudiotagger's Ogg page and
 *       Vorbis identification headers; the length from the last page</td></tr>
 *   <tr><td>{@code opus} (Ogg Opus)</td><td>duration, sample rate (always 48000, the rate Opus decodes at and
 *       counts time in), channels</td><td>jaudiotagger's Ogg pages and the 19-byte {@code OpusHead}</td></tr>
 *   <tr><td>{@code mp4} (also .m4a, .m4v), {@code mov}</td><td>duration; width, height of the first video track;
 *       sample rate, channels of the first sound track. No video track: {@link MediaType#AUDIO}</td>
 *       <td>isoparser, on the movie box</td></tr>
 *   <tr><td>{@code tiff}, {@code heif}, {@code avif}, {@code aiff}, {@code avi}, {@code mkv}, {@code webm},
 *       other Ogg</td><td>none (recognised only)</td><td></td></tr>
 *   <tr><td>text, other</td><td>none</td><td></td></tr>
 * </table>
 *
 * <p>A file of a format whose facts are read but whose header cannot be read raises {@link MediaHeaderException}
 * naming the file and why: an empty file named {@code .wav}, a file named {@code .mp3} that does not start like
 * one, a damaged header, or a file cut short where the format shows it: a WAV data chunk, an MP4 box or the last Ogg
 * page that ends past the end of the file, or an MP4 without its movie box (written last by most encoders). A FLAC,
 * MP3 or image file cut after its header still reads: its facts are what the header declares. Whether such a file
 * fails an ingest is the caller's choice ({@code IngestOptions.UnreadableMediaPolicy}). A file that cannot be read
 * at all (missing, no permission) raises {@link UncheckedIOException}.
 *
 * <pre>{@code
 * MediaInfo info = MediaProbe.probe(Path.of("clips/0001.mp4"));
 * // MediaInfo[mediaType=VIDEO, format=mp4, width=1280, height=720, durationSeconds=12.5, sampleRate=48000, ...]
 * MediaInfo kind = MediaProbe.detect(Path.of("notes/0001.json"));   // TEXT, json: the first 8 KiB only
 * }</pre>
 *
 * <p>jaudiotagger logs every chunk it reads through {@code java.util.logging} at INFO; unless the application set
 * a level for the logger {@code org.jaudiotagger}, this class turns it off (problems reach the caller as
 * exceptions instead). Stateless and thread-safe.
 */
public final class MediaProbe {

    /** Bytes read from the start of a file to recognise it, and to tell text from binary. */
    public static final int PREFIX_BYTES = 8192;

    /** Extensions of text files, which are also their {@link MediaInfo#format()}. */
    private static final Set<String> TEXT_EXTENSIONS = Set.of("txt", "text", "json", "jsonl", "ndjson", "csv", "tsv",
            "xml", "html", "htm", "md", "yaml", "yml", "srt", "vtt", "log");
    private static final String UNKNOWN = "unknown";

    /** Held here because java.util.logging keeps loggers weakly: a collected logger would lose its level. */
    private static final Logger JAUDIOTAGGER_LOG = quietJaudiotagger();

    private MediaProbe() {
    }

    /**
     * The file's kind, format and header facts.
     *
     * @throws MediaHeaderException if the file is of a format whose facts are read but its header cannot be read
     * @throws UncheckedIOException naming the file if it cannot be opened or read
     */
    public static MediaInfo probe(Path file) {
        Detection detection = detection(file);
        MediaFormat format = detection.format();
        if (format == null || !format.readable()) {
            return detection.info();
        }
        if (!detection.byContent()) {
            throw new MediaHeaderException(file.toString(), detection.info(), detection.size() == 0
                    ? "the file is empty"
                    : "the file is named ." + MediaFormat.extension(file) + " but does not start like one (first "
                            + "bytes " + hex(detection.prefix()) + ")", null);
        }
        try {
            return format.read(file, detection.size());
        } catch (BadHeader e) {
            throw new MediaHeaderException(file.toString(), detection.info(), e.getMessage(), null);
        } catch (Exception e) {
            // The libraries signal damaged input with checked exceptions of their own and with runtime ones alike.
            throw new MediaHeaderException(file.toString(), detection.info(), describe(e, file), e);
        }
    }

    /**
     * The file's kind and format without facts, from its first {@value #PREFIX_BYTES} bytes and its name.
     *
     * @throws UncheckedIOException naming the file if it cannot be opened or read
     */
    public static MediaInfo detect(Path file) {
        return detection(file).info();
    }

    /** What the first bytes and the name say: a format (null for text and other files) and whether by content. */
    private record Detection(MediaFormat format, MediaInfo info, boolean byContent, long size, byte[] prefix) {
    }

    private static Detection detection(Path file) {
        requireNonNull(file, "file is null");
        long size;
        byte[] prefix;
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            size = channel.size();
            ByteBuffer read = FileBytes.readAt(channel, 0, (int) Math.min(size, PREFIX_BYTES));
            prefix = new byte[read.remaining()];
            read.get(prefix);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + file + ": " + e, e);
        }
        Optional<MediaFormat> content = MediaFormat.byContent(prefix);
        if (content.isPresent()) {
            return new Detection(content.get(), content.get().withoutFacts(), true, size, prefix);
        }
        String extension = MediaFormat.extension(file);
        Optional<MediaFormat> named = MediaFormat.byExtension(extension);
        if (named.isPresent()) {
            return new Detection(named.get(), named.get().withoutFacts(), false, size, prefix);
        }
        String formatName = MediaInfo.isFormatName(extension) ? extension : null;
        if (TEXT_EXTENSIONS.contains(extension) || isText(prefix, prefix.length < size)) {
            return new Detection(null, MediaInfo.of(MediaType.TEXT, formatName != null ? formatName : "txt"), false,
                    size, prefix);
        }
        return new Detection(null, MediaInfo.of(MediaType.OTHER, formatName != null ? formatName : UNKNOWN), false,
                size, prefix);
    }

    /**
     * Whether {@code prefix} is UTF-8 text: it decodes, and holds no control characters but tab, line feed, form
     * feed and carriage return. A multi-byte character cut by the end of a prefix shorter than the file is allowed.
     * Empty content is not text: it says nothing.
     */
    static boolean isText(byte[] prefix, boolean more) {
        if (prefix.length == 0) {
            return false;
        }
        int length = more ? completeUtf8Length(prefix) : prefix.length;
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        CharBuffer text;
        try {
            text = decoder.decode(ByteBuffer.wrap(prefix, 0, length));
        } catch (CharacterCodingException e) {
            return false;
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x20 && c != '\t' && c != '\n' && c != '\f' && c != '\r') {
                return false;
            }
        }
        return true;
    }

    /** {@code data.length} less a trailing, incomplete UTF-8 sequence (at most 3 bytes). */
    private static int completeUtf8Length(byte[] data) {
        for (int back = 1; back <= Math.min(3, data.length); back++) {
            int b = data[data.length - back] & 0xFF;
            if ((b & 0xC0) == 0x80) {
                continue; // a continuation byte: look further back for the lead byte
            }
            int needed = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1;
            return needed > back ? data.length - back : data.length;
        }
        return data.length;
    }

    private static String hex(byte[] prefix) {
        StringBuilder hex = new StringBuilder();
        for (int i = 0; i < Math.min(prefix.length, 8); i++) {
            hex.append(String.format("%02X ", prefix[i] & 0xFF));
        }
        return hex.toString().strip();
    }

    /**
     * One line: the library's message without the file name it may start with (the caller's message has it), and
     * the exception's name unless it is an I/O or jaudiotagger error that explains itself.
     */
    private static String describe(Throwable e, Path file) {
        String message = e.getMessage() == null ? "" : e.getMessage().strip();
        if (message.startsWith(file.toString())) {
            message = message.substring(file.toString().length()).strip();
        }
        boolean explains = e instanceof IOException || e.getClass().getName().startsWith("org.jaudiotagger");
        String text = message.isEmpty() ? e.getClass().getSimpleName()
                : explains ? message : e.getClass().getSimpleName() + ": " + message;
        return text.replaceAll("\\s*[\\r\\n]+\\s*", " ");
    }

    private static Logger quietJaudiotagger() {
        Logger logger = Logger.getLogger("org.jaudiotagger");
        if (logger.getLevel() == null) {
            logger.setLevel(Level.OFF);
        }
        return logger;
    }
}
