package io.layoutbench.datasets.media;

import java.io.File;
import java.nio.file.Path;

import org.jaudiotagger.audio.flac.FlacAudioHeader;
import org.jaudiotagger.audio.flac.FlacInfoReader;
import org.jaudiotagger.audio.generic.GenericAudioHeader;
import org.jaudiotagger.audio.mp3.MP3AudioHeader;
import org.jaudiotagger.audio.mp3.MPEGFrameHeader;
import org.jaudiotagger.audio.wav.WavInfoReader;
import org.jaudiotagger.tag.id3.AbstractID3v2Tag;

/**
 * WAV, FLAC and MP3 headers through jaudiotagger's stream-information readers, which read the format
 * chunks, metadata blocks or first frame and never the tags or the audio.
 */
final class AudioHeaders {

    private AudioHeaders() {
    }

    /** fmt and data chunks; a data chunk that ends past the end of the file means the file was cut. */
    static MediaInfo wav(Path file, long size, MediaFormat format) throws Exception {
        GenericAudioHeader header = new WavInfoReader(file.toString()).read(file);
        Long end = header.getAudioDataEndPosition();
        if (end != null && end > size) {
            throw new BadHeader("the data chunk ends at byte " + end + " but the file has " + size + " bytes");
        }
        return MediaInfo.audio(format.formatName(), header.getPreciseTrackLength(),
                positive(header.getSampleRateAsNumber(), "sample rate"),
                positive(header.getChannelNumber(), "channel count"));
    }

    /** STREAMINFO; its total sample count is 0 when the encoder did not know it, and so is the duration then. */
    static MediaInfo flac(Path file, long size, MediaFormat format) throws Exception {
        FlacAudioHeader header = new FlacInfoReader().read(file);
        Long samples = header.getNoOfSamples();
        Double duration = samples == null || samples == 0 ? null : header.getPreciseTrackLength();
        return MediaInfo.audio(format.formatName(), duration, positive(header.getSampleRateAsNumber(), "sample rate"),
                positive(header.getChannelNumber(), "channel count"));
    }

    /**
     * The first frame after any ID3v2 tag; the length from its Xing or VBRI header when there is one, else from the
     * file size and bit rate.
     */
    static MediaInfo mp3(Path file, long size, MediaFormat format) throws Exception {
        File legacy = file.toFile();
        long start = AbstractID3v2Tag.getV2TagSizeIfExists(legacy);
        if (start >= size) {
            throw new BadHeader("the ID3v2 tag takes " + start + " bytes but the file has " + size);
        }
        MP3AudioHeader header = new MP3AudioHeader(legacy, start);
        boolean mono = MPEGFrameHeader.modeMap.get(MPEGFrameHeader.MODE_MONO).equals(header.getChannels());
        return MediaInfo.audio(format.formatName(), header.getPreciseTrackLength(),
                positive(header.getSampleRateAsNumber(), "sample rate"), mono ? 1 : 2);
    }

    static int positive(long value, String what) throws BadHeader {
        if (value < 1 || value > Integer.MAX_VALUE) {
            throw new BadHeader("the header gives a " + what + " of " + value);
        }
        return (int) value;
    }
}
