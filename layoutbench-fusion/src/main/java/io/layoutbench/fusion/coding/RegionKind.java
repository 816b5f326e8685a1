package io.layoutbench.fusion.coding;

/** What a region of an object is. Only {@link #COLUMN_CHUNK}s are the paper's "smallest computable units". */
public enum RegionKind {
    /** A Parquet column chunk, dictionary page included. */
    COLUMN_CHUNK,
    /** The leading {@code PAR1}. */
    MAGIC,
    /** Between the last column chunk and the footer: column and offset indexes, bloom filters. */
    PAGE_INDEX,
    /** The Thrift footer, its length and the trailing {@code PAR1}. */
    FOOTER,
    /** Bytes between column chunks that no chunk claims. */
    GAP,
    /** An object that is not Parquet, or whose footer could not be used: one region. */
    OPAQUE
}
