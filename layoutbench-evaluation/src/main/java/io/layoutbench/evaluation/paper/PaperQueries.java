package io.layoutbench.evaluation.paper;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Locale;

/**
 * The eleven queries of the LayoutBench paper, over the ImageNet metadata schema. Q2's LIMIT grows with the dataset
 * scale (10 for tiny and mini, 100 for medium, 1000 for full); {@link #ALL} uses 10, as the paper prints it. The
 * paper's L1/L2 tables call the label column {@code human_label}; L3 calls it {@code label}, which
 * {@link io.layoutbench.api.dataset.MetadataSchema#imageNet()} accepts as the same column.
 *
 * <pre>{@code
 * for (PaperQuery q : PaperQueries.forScale("medium")) {
 *     BoundQuery bound = q.bind(MetadataSchema.imageNet());
 *     System.out.println(q.id() + " selects " + bound.select(table).size() + " rows");
 * }
 * }</pre>
 */
public final class PaperQueries {

    /** The dataset scales, smallest first. */
    public static final List<String> SCALES = List.of("tiny", "mini", "medium", "full");

    /** The eleven queries as the paper prints them (Q2 with LIMIT 10). */
    public static final List<PaperQuery> ALL = withQ2Limit(10);

    private PaperQueries() {
    }

    /** Q2's LIMIT at {@code scale}: 10 for tiny and mini, 100 for medium, 1000 for full. */
    public static long q2Limit(String scale) {
        requireNonNull(scale, "scale is null");
        return switch (scale.toLowerCase(Locale.ROOT)) {
            case "tiny", "mini" -> 10;
            case "medium" -> 100;
            case "full" -> 1000;
            default -> throw new IllegalArgumentException("Unknown scale '" + scale + "'; known scales: "
                    + String.join(", ", SCALES));
        };
    }

    /** The eleven queries with Q2's LIMIT for {@code scale}. */
    public static List<PaperQuery> forScale(String scale) {
        return withQ2Limit(q2Limit(scale));
    }

    /** The query with {@code id} ({@code Q1} .. {@code Q11}, ignoring case) as in {@link #ALL}. */
    public static PaperQuery get(String id) {
        return find(ALL, id);
    }

    /** The query with {@code id} with Q2's LIMIT for {@code scale}. */
    public static PaperQuery get(String id, String scale) {
        return find(forScale(scale), id);
    }

    private static PaperQuery find(List<PaperQuery> queries, String id) {
        requireNonNull(id, "id is null");
        for (PaperQuery q : queries) {
            if (q.id().equalsIgnoreCase(id)) {
                return q;
            }
        }
        throw new IllegalArgumentException("Unknown paper query '" + id + "'; known queries: Q1 .. Q11");
    }

    private static List<PaperQuery> withQ2Limit(long q2Limit) {
        return List.of(
                new PaperQuery("Q1", "Point lookup: the first sample of one class",
                        "human_label = 'streetcar' LIMIT 1"),
                new PaperQuery("Q2", "The first N samples of one class (N grows with the scale)",
                        "human_label = 'lemon' LIMIT " + q2Limit),
                new PaperQuery("Q3", "Every sample of one class",
                        "human_label = 'cello'"),
                new PaperQuery("Q4", "Suffix match on the label: every snake class",
                        "human_label LIKE '%snake'"),
                new PaperQuery("Q5", "Every sample of three classes",
                        "human_label IN ('Old_English_sheepdog', 'giant_panda', 'water_buffalo')"),
                new PaperQuery("Q6", "Large files: at least 500 KiB, on file size only",
                        "filesize_bytes >= 500 * 1024"),
                new PaperQuery("Q7", "High resolution: both sides at least 1024 pixels",
                        "width >= 1024 AND height >= 1024"),
                new PaperQuery("Q8", "Wide images: aspect ratio above 1.5, computed per row",
                        "CAST(width AS DOUBLE) / CAST(height AS DOUBLE) > 1.5"),
                new PaperQuery("Q9", "Two classes, small files under 100 KiB",
                        "human_label IN ('canoe', 'starfish') AND filesize_bytes < 100 * 1024"),
                new PaperQuery("Q10", "One class, small files under 100 KiB",
                        "human_label = 'tiger_cat' AND filesize_bytes < 100 * 1024"),
                new PaperQuery("Q11", "One class, at least 512x512 pixels, under 200 KiB",
                        "human_label = 'bagel' AND width >= 512 AND height >= 512 AND filesize_bytes < 200 * 1024"));
    }
}
