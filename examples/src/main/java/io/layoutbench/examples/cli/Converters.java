package io.layoutbench.examples.cli;

import io.layoutbench.api.layout.RetrievalMode;
import io.layoutbench.api.network.NetworkProfile;
import io.layoutbench.api.network.NetworkProfiles;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

import java.util.List;

/** Option converters whose errors name the accepted values. */
final class Converters {

    private Converters() {
    }

    /** A network preset ({@code t3.medium}, {@code none} ...). */
    static final class ProfileConverter implements ITypeConverter<NetworkProfile> {
        @Override
        public NetworkProfile convert(String value) {
            try {
                return NetworkProfiles.get(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    /** The modes {@code --mode} selects: {@code optimized}, {@code paper} or {@code both}. */
    record ModeChoice(List<RetrievalMode> modes) {
        ModeChoice {
            modes = List.copyOf(modes);
        }
    }

    /** {@code optimized}, {@code paper} or {@code both}. */
    static final class ModeChoiceConverter implements ITypeConverter<ModeChoice> {
        @Override
        public ModeChoice convert(String value) {
            if (value.strip().equalsIgnoreCase("both")) {
                return new ModeChoice(List.of(RetrievalMode.PAPER, RetrievalMode.OPTIMIZED));
            }
            try {
                return new ModeChoice(List.of(RetrievalMode.fromName(value.strip())));
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException("Unknown mode '" + value + "'; known modes: optimized, paper, both");
            }
        }
    }

    /** One retrieval mode. */
    static final class ModeConverter implements ITypeConverter<RetrievalMode> {
        @Override
        public RetrievalMode convert(String value) {
            try {
                return RetrievalMode.fromName(value.strip());
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }
}
