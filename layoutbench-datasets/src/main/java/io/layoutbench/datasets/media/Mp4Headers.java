package io.layoutbench.datasets.media;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import org.mp4parser.IsoFile;
import org.mp4parser.ParsableBox;
import org.mp4parser.PropertyBoxParserImpl;
import org.mp4parser.boxes.iso14496.part1.objectdescriptors.AudioSpecificConfig;
import org.mp4parser.boxes.iso14496.part1.objectdescriptors.DecoderConfigDescriptor;
import org.mp4parser.boxes.iso14496.part12.HandlerBox;
import org.mp4parser.boxes.iso14496.part12.MovieBox;
import org.mp4parser.boxes.iso14496.part12.MovieExtendsBox;
import org.mp4parser.boxes.iso14496.part12.MovieExtendsHeaderBox;
import org.mp4parser.boxes.iso14496.part12.MovieHeaderBox;
import org.mp4parser.boxes.iso14496.part12.SampleDescriptionBox;
import org.mp4parser.boxes.iso14496.part12.TrackBox;
import org.mp4parser.boxes.iso14496.part14.ESDescriptorBox;
import org.mp4parser.boxes.sampleentry.AudioSampleEntry;
import org.mp4parser.boxes.sampleentry.VisualSampleEntry;

/**
 * MP4 and QuickTime headers with isoparser, given only the movie box. isoparser parses a whole file's top-level
 * boxes itself, but copies {@code mdat} to a temporary file (or, told to skip it, cannot tell a cut file from a
 * whole one) and allocates any box at its declared size. So the top-level boxes are walked here by their 8- or
 * 16-byte headers alone, seeking over the media data of any size: a box that runs past the end of the file means
 * the file was cut. The movie box ({@code moov}, at most {@value #MAX_MOVIE_BOX_BYTES} bytes) is then read into
 * memory and parsed by isoparser, each nested box's declared size checked against what is left of the movie box
 * first.
 */
final class Mp4Headers {

    /** Bytes of movie box read into memory at most: an hour of 60 fps video has about 4 MB of sample tables. */
    static final int MAX_MOVIE_BOX_BYTES = 64 << 20;

    private static final long UNKNOWN_DURATION_32 = 0xFFFF_FFFFL;

    private Mp4Headers() {
    }

    static MediaInfo read(Path file, long size, MediaFormat format) throws Exception {
        MovieBox movie = parse(movieBox(file, size));
        MovieHeaderBox header = movie.getMovieHeaderBox();
        if (header == null) {
            throw new BadHeader("the movie box has no movie header ('mvhd')");
        }
        Double duration = duration(movie, header);
        VisualSampleEntry picture = null;
        AudioSampleEntry sound = null;
        for (TrackBox track : movie.getBoxes(TrackBox.class)) {
            String handler = handlerType(track);
            if (picture == null && "vide".equals(handler)) {
                picture = first(track, VisualSampleEntry.class);
            } else if (sound == null && "soun".equals(handler)) {
                sound = first(track, AudioSampleEntry.class);
            }
        }
        Integer sampleRate = sound == null ? null : sampleRate(sound);
        Integer channels = sound == null ? null : channels(sound);
        if (picture != null) {
            return MediaInfo.video(format.formatName(), duration, AudioHeaders.positive(picture.getWidth(), "width"),
                    AudioHeaders.positive(picture.getHeight(), "height"), sampleRate, channels);
        }
        if (sound != null) {
            return MediaInfo.audio(format.formatName(), duration, sampleRate, channels);
        }
        throw new BadHeader("the movie has no video or sound track with a sample description");
    }

    /** The movie box, header included, after checking that every top-level box ends within the file. */
    private static ByteBuffer movieBox(Path file, long size) throws IOException, BadHeader {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer movie = null;
            long offset = 0;
            while (offset < size) {
                ByteBuffer header = FileBytes.readAt(channel, offset, (int) Math.min(16, size - offset));
                BoxHeader box = BoxHeader.of(header, "at offset " + offset, size - offset);
                if (box.type().equals("moov") && movie == null) {
                    if (box.size() > MAX_MOVIE_BOX_BYTES) {
                        throw new BadHeader("the movie box at offset " + offset + " has " + box.size()
                                + " bytes, more than the " + MAX_MOVIE_BOX_BYTES + " read into memory");
                    }
                    movie = FileBytes.readAt(channel, offset, (int) box.size());
                    if (movie.remaining() < box.size()) {
                        throw new BadHeader("the file shrank while its movie box was read");
                    }
                }
                offset += box.size();
            }
            if (movie == null) {
                throw new BadHeader("there is no movie box ('moov'): the file may be cut short, or hold fragments "
                        + "only");
            }
            return movie;
        }
    }

    private static MovieBox parse(ByteBuffer movie) throws IOException, BadHeader {
        try (IsoFile iso = new IsoFile(new BufferChannel(movie), new CheckedBoxParser())) {
            MovieBox box = iso.getMovieBox();
            if (box == null) {
                throw new BadHeader("the movie box could not be parsed");
            }
            return box;
        }
    }

    /** mvhd's duration; for a fragmented file with an unknown one, the fragment duration of mehd; else null. */
    private static Double duration(MovieBox movie, MovieHeaderBox header) throws BadHeader {
        long timescale = header.getTimescale();
        if (timescale <= 0) {
            throw new BadHeader("the movie header gives a time scale of " + timescale);
        }
        long units = header.getDuration();
        if (units == 0 || units == -1 || units == UNKNOWN_DURATION_32) {
            units = 0;
            for (MovieExtendsBox extendsBox : movie.getBoxes(MovieExtendsBox.class)) {
                for (MovieExtendsHeaderBox fragments : extendsBox.getBoxes(MovieExtendsHeaderBox.class)) {
                    units = fragments.getFragmentDuration();
                }
            }
        }
        return units > 0 ? units / (double) timescale : null;
    }

    private static String handlerType(TrackBox track) {
        HandlerBox handler = track.getMediaBox() == null ? null : track.getMediaBox().getHandlerBox();
        return handler == null ? null : handler.getHandlerType();
    }

    private static <T> T first(TrackBox track, Class<T> entryType) {
        SampleDescriptionBox descriptions = track.getSampleTableBox() == null ? null
                : track.getSampleTableBox().getSampleDescriptionBox();
        if (descriptions != null) {
            for (Object entry : descriptions.getBoxes()) {
                if (entryType.isInstance(entry)) {
                    return entryType.cast(entry);
                }
            }
        }
        return null;
    }

    /** The AAC decoder configuration's rate where there is one, else the sample entry's. */
    private static int sampleRate(AudioSampleEntry sound) throws BadHeader {
        AudioSpecificConfig config = audioSpecificConfig(sound);
        if (config != null && config.getSamplingFrequency() > 0) {
            return config.getSamplingFrequency();
        }
        return AudioHeaders.positive(sound.getSampleRate(), "sample rate");
    }

    /**
     * The AAC decoder configuration's channel count where it gives one: the sample entry's own field is a template
     * that ISO/IEC 14496-12 fixes at 2 for MP4, whatever the audio has.
     */
    private static int channels(AudioSampleEntry sound) throws BadHeader {
        AudioSpecificConfig config = audioSpecificConfig(sound);
        if (config != null && config.getChannelConfiguration() > 0 && config.getChannelConfiguration() < 8) {
            return config.getChannelConfiguration() == 7 ? 8 : config.getChannelConfiguration();
        }
        return AudioHeaders.positive(sound.getChannelCount(), "channel count");
    }

    private static AudioSpecificConfig audioSpecificConfig(AudioSampleEntry sound) {
        for (ESDescriptorBox esds : sound.getBoxes(ESDescriptorBox.class)) {
            if (esds.getEsDescriptor() != null) {
                DecoderConfigDescriptor decoder = esds.getEsDescriptor().getDecoderConfigDescriptor();
                if (decoder != null && decoder.getAudioSpecificInfo() != null) {
                    return decoder.getAudioSpecificInfo();
                }
            }
        }
        return null;
    }

    /**
     * A box's type and whole size from its header, checked to end within the {@code room} bytes that follow its
     * start. A size of 0 means "to the end". {@code where} places the box in messages: "at offset 40".
     */
    private record BoxHeader(String type, long size) {

        static BoxHeader of(ByteBuffer header, String where, long room) throws BadHeader {
            if (header.remaining() < 8) {
                throw new BadHeader("the data ends inside the header of the box " + where);
            }
            long size = Integer.toUnsignedLong(header.getInt(header.position()));
            String type = printable(header, header.position() + 4);
            int headerLength = 8;
            if (size == 1) {
                if (header.remaining() < 16) {
                    throw new BadHeader("the data ends inside the header of box '" + type + "' " + where);
                }
                size = header.getLong(header.position() + 8);
                headerLength = 16;
            } else if (size == 0) {
                size = room;
            }
            if (size < headerLength) {
                throw new BadHeader("box '" + type + "' " + where + " declares " + Long.toUnsignedString(size)
                        + " bytes, fewer than its header");
            }
            if (size > room) {
                throw new BadHeader("box '" + type + "' " + where + " declares " + size + " bytes but only " + room
                        + " follow its start");
            }
            return new BoxHeader(type, size);
        }

        private static String printable(ByteBuffer header, int at) {
            byte[] type = new byte[4];
            for (int i = 0; i < 4; i++) {
                byte b = header.get(at + i);
                type[i] = b >= 0x20 && b < 0x7F ? b : (byte) '?';
            }
            return new String(type, StandardCharsets.ISO_8859_1);
        }
    }

    /** The movie box's bytes as a channel whose position the checked parser can see. */
    private static final class BufferChannel implements ReadableByteChannel {
        private final ByteBuffer buffer;

        BufferChannel(ByteBuffer buffer) {
            this.buffer = buffer.duplicate();
        }

        @Override
        public int read(ByteBuffer dst) {
            if (!buffer.hasRemaining()) {
                return -1;
            }
            int n = Math.min(dst.remaining(), buffer.remaining());
            dst.put(buffer.slice(buffer.position(), n));
            buffer.position(buffer.position() + n);
            return n;
        }

        ByteBuffer remaining() {
            return buffer.slice();
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() {
        }
    }

    /**
     * isoparser's parser, refusing a box whose declared size exceeds what is left of the movie box before isoparser
     * allocates a buffer of that size (a damaged header could ask for 2 GB).
     */
    private static final class CheckedBoxParser extends PropertyBoxParserImpl {
        @Override
        public ParsableBox parseBox(ReadableByteChannel in, String parentType) throws IOException {
            if (in instanceof BufferChannel) {
                ByteBuffer rest = ((BufferChannel) in).remaining();
                if (rest.hasRemaining()) {
                    try {
                        BoxHeader.of(rest.slice(0, Math.min(16, rest.remaining())),
                                parentType == null ? "at the start of the movie box" : "inside '" + parentType + "'",
                                rest.remaining());
                    } catch (BadHeader e) {
                        throw new IOException(e.getMessage(), e);
                    }
                }
            }
            return super.parseBox(in, parentType);
        }
    }
}
