/**
 * WebDataset and plain tar shards read in place: their members are indexed from the tar headers by ranged reads
 * (the shards are never rewritten), grouped into samples, and their JSON members read into metadata columns.
 *
 * <p>The parts: {@link io.layoutbench.layouts.webdataset.TarIndexer} lists a shard's members
 * ({@link io.layoutbench.layouts.webdataset.TarIndex}, {@link io.layoutbench.layouts.webdataset.TarMember}) under a
 * {@link io.layoutbench.layouts.webdataset.TarIndexOptions} read policy;
 * {@link io.layoutbench.layouts.webdataset.SampleGrouping} turns members into
 * {@link io.layoutbench.layouts.webdataset.ShardSample}s whose fields are
 * {@link io.layoutbench.layouts.webdataset.FieldLocation}s; {@link io.layoutbench.layouts.webdataset.JsonColumns}
 * reads metadata values. Every failure is a {@link io.layoutbench.layouts.webdataset.ShardFormatException} naming
 * the shard, the member and the offset.
 *
 * <pre>{@code
 * TarIndex index = new TarIndexer(backend).index("train/shard-000000.tar");
 * List<ShardSample> samples = SampleGrouping.WEBDATASET.samples(index);
 * JsonColumns json = JsonColumns.infer(backend, "json", samples);
 * List<List<Object>> metadata = json.read(backend, samples);
 * }</pre>
 */
package io.layoutbench.layouts.webdataset;
