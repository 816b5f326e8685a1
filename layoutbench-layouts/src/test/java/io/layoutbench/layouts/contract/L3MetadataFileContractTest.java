package io.layoutbench.layouts.contract;

import java.util.List;
import java.util.Map;

/**
 * The layout contract for l3 with a metadata file beside each part ({@code metadata-file=true}, as the fac layout
 * writes its parts), its model included: the queries' answers do not change, nor does what the model predicts of
 * them but for the metadata reads.
 */
class L3MetadataFileContractTest extends L3ContractTest {

    @Override
    protected Map<String, String> writeOptions() {
        return Map.of("file-size", "4MB", "row-group-size", "1MB", "blob-threshold", "1MB", "metadata-file", "true");
    }

    @Override
    protected List<Map<String, String>> modelSettings() {
        return List.of(Map.of("file-size", "64MB", "row-group-size", "128MB", "page-size", "64KB",
                        "metadata-file", "true"),
                Map.of("file-size", "8MB", "row-group-size", "256KB", "page-size", "4KB", "metadata-file", "true"));
    }
}
