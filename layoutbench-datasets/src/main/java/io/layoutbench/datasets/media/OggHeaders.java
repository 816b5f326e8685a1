package io.layoutbench.datasets.media;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;

import org.jaudiotagger.audio.ogg.util.OggPageHeader;

/**
 * Ogg Opus headers, and the check that an Ogg file's last page is whole, on jaudiotagger's Ogg page headers.
 * jaudiotagger 3.0.1 reads Vorbis identification headers only, and no maintained Java library on Maven Central reads
 * an Opus stream's length without walking every packet, so the 19-byte {@code OpusHead} packet (RFC 7845 section
 * 5.1) is read here: the channel count and the pre-skip; the length is the last page's granule position less the
 * pre-skip, at 48 kHz.
 */
final class OggHeaders {

    /** Opus decodes at 48 kHz whatever rate the encoder was given; granule positions count samples at that rate. */
    static final int OPUS_SAMPLE_RATE = 48_000;

    private static final int OPUS_HEAD_BYTES = 19;
    private static final int HEADER_BYTES = OggPageHeader.OGG_PAGE_HEADER_FIXED_LENGTH;

    private OggHeaders() {
    }

    static MediaInfo opus(Path file, long size, MediaFormat format) throws Exception {
        OggPageHeader first;
        byte[] head = new byte[OPUS_HEAD_BYTES];
        try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
            first = OggPageHeader.read(in);
            List<OggPageHeader.PacketStartAndLength> packets = first.getPacketList();
            int length = packets.isEmpty() ? 0 : packets.get(0).getLength();
            if (length < OPUS_HEAD_BYTES || in.read(head) < OPUS_HEAD_BYTES) {
                throw new BadHeader("the OpusHead packet has fewer than " + OPUS_HEAD_BYTES + " bytes");
            }
        }
        if (!new String(head, 0, 8, StandardCharsets.ISO_8859_1).equals("OpusHead")) {
            throw new BadHeader("the first packet is not an OpusHead");
        }
        int version = head[8] & 0xFF;
        if (version >> 4 != 0) {
            throw new BadHeader("OpusHead version " + version + " is not 0.x (RFC 7845)");
        }
        int channels = AudioHeaders.positive(head[9] & 0xFF, "channel count");
        int preSkip = (head[10] & 0xFF) | (head[11] & 0xFF) << 8;
        long granule = lastPage(file, size, first.getSerialNumber()).granule();
        if (granule < preSkip) {
            throw new BadHeader("the last page's granule position " + granule + " is before the pre-skip of "
                    + preSkip + " samples");
        }
        return MediaInfo.audio(format.formatName(), (granule - preSkip) / (double) OPUS_SAMPLE_RATE,
                OPUS_SAMPLE_RATE, channels);
    }

    /** A page near the end of the file: where it starts and its header. */
    record Page(long offset, OggPageHeader header) {
        long granule() {
            return (long) header.getAbsoluteGranulePosition();
        }
    }

    /** {@link #lastPage(Path, long, Integer)} of any stream. */
    static Page lastPage(Path file, long size) throws IOException, BadHeader {
        return lastPage(file, size, null);
    }

    /**
     * The last page of the stream {@code serial} (of any stream when null), after checking that the file's last page
     * ends where the file does: a page that runs past the end means the file was cut. A last page without the
     * end-of-stream flag is accepted (a recording stopped between pages); its granule position is how far the file
     * plays. Reads the last 64 KiB, the most one page can take.
     */
    static Page lastPage(Path file, long size, Integer serial) throws IOException, BadHeader {
        int window = (int) Math.min(size, OggPageHeader.MAXIMUM_PAGE_SIZE);
        long base = size - window;
        byte[] tail;
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer read = FileBytes.readAt(channel, base, window);
            tail = Arrays.copyOf(read.array(), read.remaining());
        }
        boolean last = true;
        for (int at = tail.length - HEADER_BYTES; at >= 0; at--) {
            if (!isPageStart(tail, at)) {
                continue;
            }
            int headerLength = HEADER_BYTES + (tail[at + HEADER_BYTES - 1] & 0xFF);
            long offset = base + at;
            if (at + headerLength > tail.length) {
                throw new BadHeader("the file ends inside the header of the Ogg page at offset " + offset);
            }
            OggPageHeader header = new OggPageHeader(Arrays.copyOfRange(tail, at, at + headerLength));
            if (last) {
                long end = offset + headerLength + header.getPageLength();
                if (end > size) {
                    throw new BadHeader("the last Ogg page, at offset " + offset + ", ends at byte " + end
                            + " but the file has " + size + " bytes");
                }
                last = false;
            }
            if (serial == null || header.getSerialNumber() == serial) {
                return new Page(offset, header);
            }
        }
        throw new BadHeader("no Ogg page" + (serial == null ? "" : " of stream " + serial) + " starts in the last "
                + tail.length + " bytes");
    }

    private static boolean isPageStart(byte[] data, int at) {
        return data[at] == 'O' && data[at + 1] == 'g' && data[at + 2] == 'g' && data[at + 3] == 'S'
                && data[at + 4] == 0;
    }
}
