package io.layoutbench.fusion.store;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * What a repair did.
 *
 * @param objects          objects looked at
 * @param blocksChecked    blocks read and verified (0 when rebuilding a whole node, which reads no old copy)
 * @param blocksRebuilt    blocks decoded from the rest of their stripe and written back
 * @param bytesWritten     bytes of rebuilt blocks written
 * @param manifestsWritten manifest replicas written back
 * @param failures         what could not be repaired, one line each
 */
public record RepairReport(int objects, long blocksChecked, long blocksRebuilt, long bytesWritten,
        int manifestsWritten, List<String> failures) {
    public RepairReport {
        failures = List.copyOf(requireNonNull(failures, "failures is null"));
    }

    /** Whether everything was repaired. */
    public boolean complete() {
        return failures.isEmpty();
    }

    @Override
    public String toString() {
        return objects + " objects, " + blocksChecked + " blocks checked, " + blocksRebuilt + " rebuilt (" + bytesWritten
                + " bytes), " + manifestsWritten + " manifest replicas written"
                + (failures.isEmpty() ? "" : ", " + failures.size() + " failures: " + failures);
    }
}
