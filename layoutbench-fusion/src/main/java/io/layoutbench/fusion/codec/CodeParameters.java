package io.layoutbench.fusion.codec;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The shape of a systematic erasure code: every stripe has {@code totalBlocks} (n) blocks, of which the first
 * {@code dataBlocks} (k) hold data as it is and the other n - k hold parity. Any k blocks of a stripe rebuild the
 * other n - k, so a stripe survives the loss of n - k blocks.
 *
 * <pre>{@code
 * CodeParameters rs = CodeParameters.rs(9, 6);        // RS(9,6): 6 data + 3 parity blocks
 * CodeParameters same = CodeParameters.parse("RS(9,6)");
 * rs.parityBlocks();                                   // 3
 * }</pre>
 *
 * @param totalBlocks n, the blocks of a stripe, data and parity; at most {@value #MAX_TOTAL_BLOCKS}
 * @param dataBlocks  k, the data blocks of a stripe, at least 1 and fewer than n
 */
public record CodeParameters(int totalBlocks, int dataBlocks) {

    /** The largest stripe a code over GF(2^8) can have. */
    public static final int MAX_TOTAL_BLOCKS = 256;

    private static final Pattern TEXT = Pattern.compile("(?:rs)?[(\\s-]*(\\d+)\\s*[,/-]\\s*(\\d+)\\s*\\)?");

    public CodeParameters {
        if (dataBlocks < 1 || totalBlocks <= dataBlocks || totalBlocks > MAX_TOTAL_BLOCKS) {
            throw new IllegalArgumentException("An (n, k) erasure code needs 1 <= k < n <= " + MAX_TOTAL_BLOCKS
                    + ", got n = " + totalBlocks + ", k = " + dataBlocks);
        }
    }

    /** The Reed-Solomon code RS(n, k). */
    public static CodeParameters rs(int totalBlocks, int dataBlocks) {
        return new CodeParameters(totalBlocks, dataBlocks);
    }

    /**
     * Parses {@code RS(9,6)}, {@code rs-9-6} or {@code 9,6} (n first, as the paper writes codes).
     *
     * @throws IllegalArgumentException naming the text if it is none of these
     */
    public static CodeParameters parse(String text) {
        Matcher m = TEXT.matcher(text.trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new IllegalArgumentException("An erasure code must be written like RS(9,6) (n total blocks, k data "
                    + "blocks), got '" + text + "'");
        }
        return new CodeParameters(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)));
    }

    /** n - k, the parity blocks of a stripe: also how many blocks a stripe may lose. */
    public int parityBlocks() {
        return totalBlocks - dataBlocks;
    }

    /** (n - k) / k, the least storage overhead of the code: parity bytes per data byte with equal blocks. */
    public double optimalOverhead() {
        return (double) parityBlocks() / dataBlocks;
    }

    /** {@code RS(n,k)}. */
    @Override
    public String toString() {
        return "RS(" + totalBlocks + "," + dataBlocks + ")";
    }
}
