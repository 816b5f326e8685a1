package io.layoutbench.datasets.synthetic;

import io.layoutbench.api.LayoutBenchException;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The 1,000 ImageNet-1K classes in class-index order, loaded once from the classpath resource
 * {@code io/layoutbench/datasets/imagenet_labels.tsv} (one {@code wnid<TAB>label} line per class).
 *
 * <pre>{@code
 * ImageNetClass streetcar = ImageNetClasses.byLabel("streetcar").get(0);
 * String prefix = streetcar.wnid();            // "n04335435"
 * int classes = ImageNetClasses.all().size();  // 1000
 * }</pre>
 *
 * <p>Thread-safe and immutable.
 */
public final class ImageNetClasses {

    /** Classpath location of the label table. */
    public static final String RESOURCE = "/io/layoutbench/datasets/imagenet_labels.tsv";

    /** Number of classes in ImageNet-1K. */
    public static final int COUNT = 1000;

    private static final Pattern WNID = Pattern.compile("n\\d{8}");

    private ImageNetClasses() {
    }

    /** All classes, index {@code i} at position {@code i}. */
    public static List<ImageNetClass> all() {
        return Holder.CLASSES;
    }

    /** The classes with this label, in index order; empty when there is none. Labels are case-sensitive. */
    public static List<ImageNetClass> byLabel(String label) {
        return Holder.BY_LABEL.getOrDefault(label, List.of());
    }

    /** The class with this WordNet id. */
    public static Optional<ImageNetClass> byWnid(String wnid) {
        return Optional.ofNullable(Holder.BY_WNID.get(wnid));
    }

    /**
     * The single class with this label.
     *
     * @throws IllegalArgumentException if no class or more than one class has the label
     */
    public static ImageNetClass uniqueByLabel(String label) {
        List<ImageNetClass> matches = byLabel(label);
        if (matches.size() != 1) {
            throw new IllegalArgumentException("Expected exactly one ImageNet class labelled '" + label
                    + "' but found " + matches.size());
        }
        return matches.get(0);
    }

    // Lazy holder: the table is parsed on first use and shared by every dataset.
    private static final class Holder {
        static final List<ImageNetClass> CLASSES = load();
        static final Map<String, List<ImageNetClass>> BY_LABEL = indexByLabel(CLASSES);
        static final Map<String, ImageNetClass> BY_WNID = indexByWnid(CLASSES);
    }

    static List<ImageNetClass> load() {
        try (InputStream in = ImageNetClasses.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new LayoutBenchException("ImageNet label table " + RESOURCE + " is not on the classpath");
            }
            return parse(new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)), RESOURCE);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read ImageNet label table " + RESOURCE, e);
        }
    }

    static List<ImageNetClass> parse(BufferedReader reader, String source) throws IOException {
        List<ImageNetClass> classes = new ArrayList<>(COUNT);
        String previousWnid = "";
        String line;
        int lineNumber = 0;
        while ((line = reader.readLine()) != null) {
            lineNumber++;
            if (line.isBlank()) {
                continue;
            }
            int tab = line.indexOf('\t');
            if (tab < 0 || line.indexOf('\t', tab + 1) >= 0) {
                throw new LayoutBenchException(source + " line " + lineNumber
                        + ": expected 'wnid<TAB>label' but found '" + line + "'");
            }
            String wnid = line.substring(0, tab);
            String label = line.substring(tab + 1).strip();
            if (!WNID.matcher(wnid).matches() || label.isEmpty()) {
                throw new LayoutBenchException(source + " line " + lineNumber
                        + ": expected a wnid like n01440764 and a non-empty label but found '" + line + "'");
            }
            // Class index order is wnid order; anything else would silently renumber every class.
            if (wnid.compareTo(previousWnid) <= 0) {
                throw new LayoutBenchException(source + " line " + lineNumber + ": wnid " + wnid
                        + " is not after " + previousWnid + "; the table must be sorted by wnid");
            }
            previousWnid = wnid;
            classes.add(new ImageNetClass(classes.size(), wnid, label));
        }
        if (classes.size() != COUNT) {
            throw new LayoutBenchException(source + ": expected " + COUNT + " classes but found " + classes.size());
        }
        return List.copyOf(classes);
    }

    private static Map<String, List<ImageNetClass>> indexByLabel(List<ImageNetClass> classes) {
        Map<String, List<ImageNetClass>> byLabel = new HashMap<>();
        for (ImageNetClass c : classes) {
            byLabel.computeIfAbsent(c.label(), k -> new ArrayList<>()).add(c);
        }
        byLabel.replaceAll((k, v) -> List.copyOf(v));
        return Collections.unmodifiableMap(byLabel);
    }

    private static Map<String, ImageNetClass> indexByWnid(List<ImageNetClass> classes) {
        Map<String, ImageNetClass> byWnid = new HashMap<>();
        for (ImageNetClass c : classes) {
            byWnid.put(c.wnid(), c);
        }
        return Collections.unmodifiableMap(byWnid);
    }
}
