package io.layoutbench.examples.cli;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.layout.RetrievalMode;
import io.layoutbench.api.metrics.RequestMetrics;
import io.layoutbench.api.network.NetworkProfile;
import io.layoutbench.backend.simulated.SimulatedNetworkBackend;
import picocli.CommandLine.Option;

/** How a command reads: {@code --mode} and the simulated network of {@code --profile}. */
final class ReadThrough {

    @Option(names = "--mode", paramLabel = "MODE", defaultValue = "optimized",
            converter = Converters.ModeConverter.class,
            description = "Retrieval mode: optimized or paper. Default: ${DEFAULT-VALUE}.")
    RetrievalMode mode;

    @Option(names = "--profile", paramLabel = "PROFILE", defaultValue = "t3.medium",
            converter = Converters.ProfileConverter.class,
            description = "Network preset to read through (none for no simulation). Default: ${DEFAULT-VALUE}.")
    NetworkProfile profile;

    /** A client of {@code backend} that counts nothing itself, behind the simulated network of the profile. */
    ObjectBackend client(ObjectBackend backend) {
        ObjectBackend view = backend.withMetrics(RequestMetrics.NONE);
        return profile.isUnlimited() ? view : SimulatedNetworkBackend.wrap(view, profile);
    }
}
