package io.layoutbench.layouts.common;

import io.layoutbench.api.dataset.SampleNameSet;
import io.layoutbench.api.dataset.SampleNames;

/**
 * What a writer checks of each sample's name before storing it, whatever the layout: that it is a valid
 * {@link SampleNames sample name} and that no earlier sample of the dataset has it. A repeated name would
 * overwrite the earlier sample (L1's object) or shadow it (a second L2 member or L3 row of that name, which
 * {@code query --out} would write over the first), so it is refused, and the writer's caller aborts the ingest.
 * Samples named by position are unique and valid by construction and are not tracked.
 *
 * <p>Costs 8 bytes a sample ({@link SampleNameSet}): 16 MiB at 1.28 M samples. Not thread-safe, as writers are not.
 */
final class UniqueSampleNames {

    private final boolean byFilename;
    private final SampleNameSet seen = new SampleNameSet();

    UniqueSampleNames(SampleKeys keys) {
        this.byFilename = keys.byFilename();
    }

    /**
     * Checks the name {@code key} of the sample at {@code position}.
     *
     * @throws IllegalArgumentException if the name is not a valid sample name or an earlier sample has it
     */
    void check(String key, long position) {
        if (!byFilename) {
            return;
        }
        SampleNames.check(key);
        if (!seen.add(key)) {
            throw new IllegalArgumentException("The sample at position " + position + " (from 0) is named '" + key
                    + "', as an earlier sample of the dataset is: the layouts store and find samples by name, so it "
                    + "would overwrite or shadow that one; give every sample a distinct filename");
        }
    }
}
