package io.layoutbench.fusion.layout;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.layout.StorageLayout;
import io.layoutbench.api.layout.StorageLayoutContractTest;
import io.layoutbench.api.layout.StorageLayouts;
import io.layoutbench.backend.memory.MemoryBackend;
import io.layoutbench.datasets.synthetic.ImageNetScale;
import io.layoutbench.datasets.synthetic.SyntheticImageNet;
import io.layoutbench.evaluation.paper.PaperQueries;
import io.layoutbench.evaluation.paper.PaperQuery;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The layout contract for fac: L3 erasure coded across nine prefix nodes of one backend. A damaged block is rebuilt
 * from the rest of its stripe, so the contract expects the right samples back instead of an error.
 */
class FacLayoutContractTest extends StorageLayoutContractTest {

    @Override
    protected StorageLayout layout() {
        return StorageLayouts.get(FacLayout.NAME);
    }

    @Override
    protected ObjectBackend newBackend() {
        return new MemoryBackend();
    }

    @Override
    protected Map<String, String> writeOptions() {
        return Map.of("file-size", "8MB", "blob-threshold", "1MB");
    }

    @Override
    protected boolean reportsDamage() {
        return false;
    }

    @Override
    protected ReferenceWorkload referenceWorkload() {
        SyntheticImageNet tiny = SyntheticImageNet.of(ImageNetScale.TINY, 42, false);
        Map<String, String> queries = new LinkedHashMap<>();
        for (PaperQuery q : PaperQueries.forScale("tiny")) {
            queries.put(q.id(), q.sql());
        }
        return new ReferenceWorkload(tiny.schema(), tiny::iterator, queries);
    }

    /**
     * The FAC store reads whole checksum units, to check each one it returns bytes of: 16 KiB ones in this layout,
     * the store's 64 KiB when the options say so.
     */
    @Override
    protected long partialReadSlackBytes() {
        return 2 * (64 << 10);
    }
}
