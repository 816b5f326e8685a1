package io.layoutbench.api.cost;

/**
 * The prices the cost model charges, in US dollars. {@link #s3Standard()} is S3 Standard in us-east-1 as the
 * LayoutBench paper used it; override any of them for your own store or region.
 *
 * <p>Transfer: the paper charges $0.09/GB (S3 data transfer out to the internet) on every byte read, although
 * transfer from S3 to EC2 in the same region is free; {@link #sameRegion()} models that case. Requests: GET-class
 * (GET, HEAD) $0.0004 per 1,000; PUT-class (PUT, COPY, POST, LIST) $0.005 per 1,000; DELETE is free. Storage:
 * $0.023 per GB-month. Prices as published by AWS for us-east-1 (checked 2026; see the README's cost section).
 *
 * <pre>{@code
 * Prices prices = Prices.s3Standard().withTransferPerGb(0.0);   // same-region EC2 client
 * double dollars = prices.transferDollars(1_500_000_000L);
 * }</pre>
 *
 * @param transferPerGb      dollars per GB (10^9 bytes) transferred out
 * @param getPer1000         dollars per 1,000 GET-class requests
 * @param putPer1000         dollars per 1,000 PUT-class requests
 * @param storagePerGbMonth  dollars per GB-month stored
 */
public record Prices(double transferPerGb, double getPer1000, double putPer1000, double storagePerGbMonth) {

    private static final double GB = 1e9;

    public Prices {
        check(transferPerGb, "transferPerGb");
        check(getPer1000, "getPer1000");
        check(putPer1000, "putPer1000");
        check(storagePerGbMonth, "storagePerGbMonth");
    }

    /** S3 Standard, us-east-1, transfer charged as the paper does ($0.09/GB). */
    public static Prices s3Standard() {
        return new Prices(0.09, 0.0004, 0.005, 0.023);
    }

    /** S3 Standard read from EC2 in the same region: no transfer charge. */
    public static Prices sameRegion() {
        return s3Standard().withTransferPerGb(0.0);
    }

    public Prices withTransferPerGb(double dollars) {
        return new Prices(dollars, getPer1000, putPer1000, storagePerGbMonth);
    }

    public Prices withGetPer1000(double dollars) {
        return new Prices(transferPerGb, dollars, putPer1000, storagePerGbMonth);
    }

    public Prices withPutPer1000(double dollars) {
        return new Prices(transferPerGb, getPer1000, dollars, storagePerGbMonth);
    }

    public Prices withStoragePerGbMonth(double dollars) {
        return new Prices(transferPerGb, getPer1000, putPer1000, dollars);
    }

    /** Dollars for transferring {@code bytes}. */
    public double transferDollars(long bytes) {
        return transferPerGb * bytes / GB;
    }

    /** Dollars for {@code gets} GET-class and {@code puts} PUT-class requests. */
    public double requestDollars(long gets, long puts) {
        return getPer1000 * gets / 1000.0 + putPer1000 * puts / 1000.0;
    }

    /** Dollars for storing {@code bytes} for {@code months}. */
    public double storageDollars(long bytes, double months) {
        return storagePerGbMonth * bytes / GB * months;
    }

    private static void check(double price, String name) {
        if (!(price >= 0) || Double.isInfinite(price)) {
            throw new IllegalArgumentException(name + " must be a finite price >= 0, got " + price);
        }
    }
}
