/**
 * A deterministic synthetic speech corpus shaped like LibriSpeech
 * ({@link io.layoutbench.datasets.synthetic.speech.SyntheticSpeech}): speakers, chapters and utterances whose samples
 * carry a real 16 kHz WAV file and its transcript as two payload fields, generated on demand from a seed, at the
 * {@link io.layoutbench.datasets.synthetic.speech.SpeechScale}s.
 */
package io.layoutbench.datasets.synthetic.speech;
