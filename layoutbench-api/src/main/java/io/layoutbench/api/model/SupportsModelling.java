package io.layoutbench.api.model;

import java.util.List;
import java.util.Map;

/**
 * A {@link io.layoutbench.api.layout.StorageLayout} that predicts its plans before it is written: it builds a
 * {@link LayoutModel} of itself over a dataset's metadata, and names the write settings worth comparing. The layout
 * advisor ranks every layout on the class path that implements this.
 *
 * <pre>{@code
 * if (StorageLayouts.get("l3") instanceof SupportsModelling modelled) {
 *     for (Map<String, String> options : modelled.candidateSettings(metadata)) {
 *         LayoutModel model = modelled.model(metadata, options);
 *         ...
 *     }
 * }
 * }</pre>
 */
public interface SupportsModelling {

    /**
     * The layout written with {@code options} over {@code data}, modelled.
     *
     * @throws IllegalArgumentException for options {@code create} would refuse, naming the option
     */
    LayoutModel model(DatasetMetadata data, Map<String, String> options);

    /**
     * The write settings worth comparing for {@code data}, the layout's defaults first (an empty map). The layout
     * advisor models each.
     */
    default List<Map<String, String>> candidateSettings(DatasetMetadata data) {
        return List.of(Map.of());
    }
}
