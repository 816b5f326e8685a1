/**
 * Parquet as the layouts use it: writing metadata tables and blob tables, and reading them back from an object
 * store with few requests. Needs no Hadoop at run time; pages are uncompressed.
 *
 * <ul>
 *   <li>{@link io.layoutbench.parquet.ParquetTableWriter} writes a
 *       {@link io.layoutbench.parquet.ParquetTableSchema} (metadata columns under chosen physical names,
 *       extra columns, an optional blob column) row by row, with the sizes of
 *       {@link io.layoutbench.parquet.ParquetWriteOptions}; DuckDB reads the result.</li>
 *   <li>{@link io.layoutbench.parquet.BackendInputFile} is a Parquet {@code InputFile} over one object:
 *       tail prefetch, kept regions, read-ahead for small reads, merged vectored reads
 *       ({@link io.layoutbench.parquet.FetchOptions}, {@link io.layoutbench.parquet.RangeCoalescer}).</li>
 *   <li>{@link io.layoutbench.parquet.ParquetObject} opens an object: its
 *       {@link io.layoutbench.parquet.ParquetFooter} (row groups, byte ranges, statistics), page indexes
 *       ({@link io.layoutbench.parquet.ColumnPageIndex}), and whole columns as arrays
 *       ({@link io.layoutbench.parquet.MetadataColumns} of the api's
 *       {@link io.layoutbench.api.dataset.ColumnVector}s, which a {@code ColumnarTable} holds as they are).</li>
 *   <li>{@link io.layoutbench.parquet.ParquetChunkLayout} reads where the column chunks of any Parquet object lie,
 *       nested schemas too, with the footer reader behind {@link io.layoutbench.parquet.ParquetFooter}.</li>
 *   <li>{@link io.layoutbench.parquet.BlobReader} fetches the blobs of chosen rows: only the pages that hold
 *       them, or whole row groups as in the LayoutBench paper.</li>
 *   <li>{@link io.layoutbench.parquet.ParquetChecksums} are the CRC32Cs of the regions a reader trusts (footer, page
 *       indexes, metadata chunks), recorded at write time outside the file and checked as they are read; every
 *       decoded page is also checked against its own CRC32.</li>
 * </ul>
 *
 * <pre>{@code
 * // L3: write, upload, then fetch the images of the wide tench pictures.
 * ParquetTableSchema schema = ParquetTableSchema.builder(MetadataSchema.imageNet()).blobColumn("image_bytes").build();
 * try (ParquetTableWriter writer = ParquetTableWriter.create(schema, file, ParquetWriteOptions.defaults())) {
 *     samples.forEach(s -> writer.write(s.metadata(), List.of(), s.data()));
 * }
 * backend.put("l3/part-00000.parquet", file);
 *
 * ParquetObject table = ParquetObject.open(backend, "l3/part-00000.parquet");
 * MetadataColumns columns = table.readMetadataColumns();
 * BlobReader images = new BlobReader(table, "image_bytes");
 * List<ByteBuffer> blobs = images.read(0, matchingRowsOfRowGroup0);
 * }</pre>
 */
package io.layoutbench.parquet;
