/**
 * A deterministic synthetic ImageNet-1K train set ({@link io.layoutbench.datasets.synthetic.SyntheticImageNet}) whose
 * metadata reproduces the LayoutBench paper's query result counts and whose samples are JPEG-like bytes generated
 * on demand from a seed.
 */
package io.layoutbench.datasets.synthetic;
