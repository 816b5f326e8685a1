package io.layoutbench.examples.cli;

import io.layoutbench.api.layout.StorageLayout;
import io.layoutbench.api.layout.StorageLayouts;
import io.layoutbench.datasets.synthetic.ImageNetScale;
import io.layoutbench.examples.bench.LayoutSettings;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/** Resolving {@code --layouts} and {@code --layout-option} against the layouts on the class path. */
final class Layouts {

    private Layouts() {
    }

    /**
     * The layouts {@code names} lists, in that order; all layouts found when {@code names} is empty.
     *
     * @throws ParameterException naming an unknown layout and the known ones
     */
    static List<StorageLayout> resolve(CommandLine cmd, List<String> names) {
        if (names == null || names.isEmpty()) {
            return StorageLayouts.names().stream().map(StorageLayouts::get).toList();
        }
        List<StorageLayout> layouts = new ArrayList<>();
        for (String raw : names) {
            String name = raw.strip().toLowerCase(Locale.ROOT);
            if (!StorageLayouts.names().contains(name)) {
                throw new ParameterException(cmd, "Unknown layout '" + raw + "'; known layouts: "
                        + String.join(", ", StorageLayouts.names()));
            }
            StorageLayout layout = StorageLayouts.get(name);
            if (!layouts.contains(layout)) {
                layouts.add(layout);
            }
        }
        return layouts;
    }

    /** {@code layout.key=value} entries by layout, checked for form and for the layout names. */
    static Map<String, Map<String, String>> overrides(CommandLine cmd, List<String> entries) {
        Map<String, Map<String, String>> overrides;
        try {
            overrides = LayoutSettings.parseOverrides(entries);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(cmd, e.getMessage());
        }
        for (String layout : overrides.keySet()) {
            if (!StorageLayouts.names().contains(layout)) {
                throw new ParameterException(cmd, "Layout option for unknown layout '" + layout
                        + "'; known layouts: " + String.join(", ", StorageLayouts.names()));
            }
        }
        return overrides;
    }

    /**
     * The options {@code layout} is written with: the paper's for {@code scale} (for a user's dataset, which has
     * no scale, those of mini: 64 MB files), then the overrides.
     */
    static Map<String, String> options(StorageLayout layout, ImageNetScale scale,
            Map<String, Map<String, String>> overrides) {
        ImageNetScale effective = scale == null ? ImageNetScale.MINI : scale;
        return LayoutSettings.withOverrides(layout.name(), LayoutSettings.paperDefaults(layout.name(), effective),
                overrides);
    }
}
