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
import org.jaudiotagger.audio.ogg.util.VorbisIdentificationHeader;

/**
 * Ogg Vorbis and Opus headers on jaudiotagger's Ogg page headers: the codec's identification header from the first
 * packet, the length from the granule position of the stream's last page, and the check that the file's last page
 * is whole. jaudiotagger's own Ogg reader handles Vorbis only and finds the last page by reading backwards one byte
 * per system call (1.8 ms for a 7 KB file); no maintained Java library on Maven Central reads an Opus stream's length
 * without walking every packet. Opus's 19-byte {@code OpusHead} packet (RFC 7845 section 5.1) is read here: the
 * channel count and the pre-skip; its length is the last granule position less the pre-skip, at 48 kHz.
 */
final class OggHeaders {

    /** Opus decodes at 48 kHz whatever rate the encoder was given; granule positions count samples at that rate. */
    static final int OPUS_SAMPLE_RATE = 48_000;

    private static final int OPUS_HEAD_BYTES = 19;
    private static final int VORBIS_IDENTIFICATION_BYTES = 30;
    private static final int HEADER_BYTES = OggPageHeader.OGG_PAGE_HEADER_FIXED_LENGTH;

    private OggHeaders() {
    }

    static MediaInfo vorbis(Path file, long size, MediaFormat format) throws Exception {
        FirstPacket first = firstPacket(file, VORBIS_IDENTIFICATION_BYTES, "Vorbis identification header");
        VorbisIdentificationHeader identification = new VorbisIdentificationHeader(first.bytes());
        if (!identification.isValid()) {
            throw new BadHeader("the first packet is not a Vorbis identification header");
        }
        int sampleRate = AudioHeaders.positive(identification.getSamplingRate(), "sample rate");
        int channels = AudioHeaders.positive(identification.getChannelNumber(), "channel count");
        long granule = lastGranule(file, size, first.serial());
        return MediaInfo.audio(format.formatName(), granule / (double) sampleRate, sampleRate, channels);
    }

    static MediaInfo opus(Path file, long size, MediaFormat format) throws Exception {
        FirstPacket first = firstPacket(file, OPUS_HEAD_BYTES, "OpusHead");
        byte[] head = first.bytes();
        if (!new String(head, 0, 8, StandardCharsets.ISO_8859_1).equals("OpusHead")) {
            throw new BadHeader("the first packet is not an OpusHead");
        }
        int version = head[8] & 0xFF;
        if (version >> 4 != 0) {
            throw new BadHeader("OpusHead version " + version + " is not 0.x (RFC 7845)");
        }
        int channels = AudioHeaders.positive(head[9] & 0xFF, "channel count");
        int preSkip = (head[10] & 0xFF) | (head[11] & 0xFF) << 8;
        long granule = lastGranule(file, size, first.serial());
        if (granule < preSkip) {
            throw new BadHeader("the last page's granule position " + granule + " is before the pre-skip of "
                    + preSkip + " samples");
        }
        return MediaInfo.audio(format.formatName(), (granule - preSkip) / (double) OPUS_SAMPLE_RATE,
                OPUS_SAMPLE_RATE, channels);
    }

    /** The stream's serial number and the first {@code length} bytes of its first packet. */
    private record FirstPacket(int serial, byte[] bytes) {
    }

    private static FirstPacket firstPacket(Path file, int length, String what) throws Exception {
        try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
            OggPageHeader first = OggPageHeader.read(in);
            List<OggPageHeader.PacketStartAndLength> packets = first.getPacketList();
            int packetLength = packets.isEmpty() ? 0 : packets.get(0).getLength();
            byte[] bytes = new byte[length];
            if (packetLength < length || in.read(bytes) < length) {
                throw new BadHeader("the " + what + " packet has fewer than " + length + " bytes");
            }
            return new FirstPacket(first.getSerialNumber(), bytes);
        }
    }

    /**
     * The granule position of the last page of the stream {@code serial}, after checking that the file's last page
     * ends where the file does: a page that runs past the end means the file was cut. A last page without the
     * end-of-stream flag is accepted (a recording stopped between pages); its granule position is how far the file
     * plays. Reads the last 64 KiB, the most one page can take.
     */
    static long lastGranule(Path file, long size, int serial) throws IOException, BadHeader {
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
            if (header.getSerialNumber() == serial) {
                long granule = (long) header.getAbsoluteGranulePosition();
                if (granule < 0) {
                    throw new BadHeader("the last page of the stream, at offset " + offset + ", has no granule "
                            + "position");
                }
                return granule;
            }
        }
        throw new BadHeader("no page of the Ogg stream " + serial + " starts in the last " + tail.length + " bytes");
    }

    private static boolean isPageStart(byte[] data, int at) {
        return data[at] == 'O' && data[at + 1] == 'g' && data[at + 2] == 'g' && data[at + 3] == 'S'
                && data[at + 4] == 0;
    }
}
