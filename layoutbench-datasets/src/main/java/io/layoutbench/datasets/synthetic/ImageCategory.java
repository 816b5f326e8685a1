package io.layoutbench.datasets.synthetic;

/**
 * Resolution classes of the synthetic images, chosen so that each LayoutBench resolution predicate is true for whole
 * categories and false for the others: only {@link #HUGE} has width and height at least 1024 (Q7), only
 * {@link #WIDE} has width / height above 1.5 (Q8), only {@link #LARGE} and {@link #HUGE} have both sides at least
 * 512 (Q11). Counting samples per category therefore counts query results exactly.
 *
 * <p>Each category has a log-normal file-size distribution (median and sigma, before the per-class factor) and a
 * table of (width, height, weight) shapes seen often in ImageNet's train set: Flickr's 500-pixel images dominate,
 * camera-sized images form the long tail.
 */
enum ImageCategory {
    /** Shorter side below 512, width / height at most 1.5: 500x375, 375x500, 500x334, 500x500, 640x480 ... */
    NORMAL(85_000, 0.55, new int[][] {
            {500, 375, 460}, {375, 500, 130}, {500, 334, 50}, {333, 500, 55}, {500, 500, 45}, {500, 400, 30},
            {400, 500, 12}, {500, 366, 25}, {500, 357, 18}, {500, 341, 15}, {500, 450, 15}, {500, 417, 15},
            {640, 480, 20}, {480, 360, 10}, {450, 500, 8}, {300, 500, 8}, {500, 335, 20}, {500, 338, 10},
            {400, 300, 10}, {500, 469, 8}, {375, 375, 5}, {250, 188, 3}, {200, 150, 2}, {500, 480, 6},
    }),
    /** Width / height above 1.5 and not both sides 512 or more: 500x333, 500x281, 640x426, 1200x400 ... */
    WIDE(74_000, 0.55, new int[][] {
            {500, 333, 560}, {500, 332, 80}, {500, 331, 30}, {500, 330, 20}, {500, 313, 25}, {500, 300, 50},
            {500, 281, 80}, {500, 290, 20}, {500, 250, 40}, {500, 200, 15}, {640, 426, 30}, {800, 450, 20},
            {1000, 500, 10}, {1200, 400, 8}, {500, 315, 12},
    }),
    /** Both sides at least 512, not both at least 1024, width / height at most 1.5: 800x600, 1024x768 ... */
    LARGE(165_000, 0.6, new int[][] {
            {800, 600, 250}, {600, 800, 80}, {1024, 768, 200}, {768, 1024, 60}, {1280, 960, 80}, {960, 1280, 20},
            {1000, 750, 60}, {1200, 900, 50}, {900, 1200, 15}, {1152, 864, 50}, {512, 512, 30}, {640, 640, 25},
            {700, 525, 40}, {1280, 1000, 15}, {600, 600, 30},
    }),
    /** Both sides at least 1024, width / height at most 1.5: 1600x1200, 2048x1536, 3264x2448, 4272x2848 ... */
    HUGE(430_000, 0.7, new int[][] {
            {1600, 1200, 200}, {2048, 1536, 150}, {1024, 1024, 30}, {1280, 1024, 50}, {2592, 1944, 100},
            {3264, 2448, 60}, {1200, 1600, 80}, {1536, 2048, 50}, {2272, 1704, 80}, {3072, 2304, 40},
            {4000, 3000, 30}, {4272, 2848, 30}, {1536, 1024, 50}, {2816, 2112, 30}, {3888, 2592, 20},
    });

    private final double medianBytes;
    private final double sigma;
    private final int[] widths;
    private final int[] heights;
    private final double[] cumulative;

    ImageCategory(double medianBytes, double sigma, int[][] shapes) {
        this.medianBytes = medianBytes;
        this.sigma = sigma;
        this.widths = new int[shapes.length];
        this.heights = new int[shapes.length];
        this.cumulative = new double[shapes.length];
        double total = 0;
        for (int[] shape : shapes) {
            total += shape[2];
        }
        double running = 0;
        for (int i = 0; i < shapes.length; i++) {
            widths[i] = shapes[i][0];
            heights[i] = shapes[i][1];
            running += shapes[i][2];
            cumulative[i] = running / total;
        }
    }

    double medianBytes() {
        return medianBytes;
    }

    double sigma() {
        return sigma;
    }

    int shapeCount() {
        return widths.length;
    }

    int width(int shape) {
        return widths[shape];
    }

    int height(int shape) {
        return heights[shape];
    }

    /** The shape at quantile {@code v} in [0, 1) of the weighted shape table. */
    int shapeAt(double v) {
        for (int i = 0; i < cumulative.length - 1; i++) {
            if (v < cumulative[i]) {
                return i;
            }
        }
        return cumulative.length - 1;
    }
}
