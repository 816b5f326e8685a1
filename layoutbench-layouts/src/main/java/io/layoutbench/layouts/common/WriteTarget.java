package io.layoutbench.layouts.common;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.layout.WriteJob;

import java.security.SecureRandom;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * Where a {@link GenerationalDatasetWriter} puts its objects and what it commits: a whole dataset (objects below
 * {@code <prefix>/<generation>/}, the dataset's manifest at commit), or one part of a distributed {@link WriteJob}
 * (objects below {@code <prefix>/<generation>/<directory>/}, the part's own manifest there at commit).
 *
 * <pre>{@code
 * new L2Writer(backend, WriteTarget.dataset(backend, "l2", prefix), schema, shardSize);
 * new L2Writer(backend, WriteTarget.part(job, 3, "task-17"), job.schema(), shardSize);
 * }</pre>
 *
 * @param prefix     the dataset's prefix
 * @param generation the ingest generation
 * @param directory  the part's directory below the generation, empty for a whole dataset
 * @param replacing  identity of the manifest the commit replaces (empty if none); unused by a part
 * @param part       the part's index, -1 for a whole dataset
 * @param attempt    the attempt writing the part, empty for a whole dataset
 */
public record WriteTarget(String prefix, String generation, String directory, String replacing, int part,
        String attempt) {

    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss");
    private static final SecureRandom RANDOM = new SecureRandom();

    public WriteTarget {
        GenerationalDatasetWriter.checkPrefix(prefix);
        requireNonNull(generation, "generation is null");
        requireNonNull(directory, "directory is null");
        requireNonNull(replacing, "replacing is null");
        requireNonNull(attempt, "attempt is null");
    }

    /** A new dataset at {@code prefix}, replacing the one committed there now (if any) when committed. */
    public static WriteTarget dataset(ObjectBackend backend, String layout, String prefix) {
        requireNonNull(backend, "backend is null");
        GenerationalDatasetWriter.checkPrefix(prefix);
        return new WriteTarget(prefix, newGeneration(), "", ManifestCommit.identity(backend, layout, prefix), -1,
                "");
    }

    /**
     * Part {@code part} of {@code job} as written by {@code attempt}: its own directory
     * {@code part-00003-<attempt>}, so attempts of one part never write over each other.
     */
    public static WriteTarget part(WriteJob job, int part, String attempt) {
        requireNonNull(job, "job is null");
        if (part < 0) {
            throw new IllegalArgumentException("A part's index must be >= 0, got " + part);
        }
        if (attempt == null || !attempt.matches("[A-Za-z0-9_.-]{1,64}")) {
            throw new IllegalArgumentException("A part's attempt must be 1-64 letters, digits, '.', '_' or '-', "
                    + "got '" + attempt + "'");
        }
        return new WriteTarget(job.prefix(), job.generation(), String.format(Locale.ROOT, "part-%05d-%s", part,
                attempt), job.replacing(), part, attempt);
    }

    /** The whole dataset {@code job} writes: the target of its commit. */
    public static WriteTarget dataset(WriteJob job) {
        return new WriteTarget(job.prefix(), job.generation(), "", job.replacing(), -1, "");
    }

    /** A fresh generation name: the UTC time and 40 random bits ({@code g20261201T230000-3fa9c1d2e4}). */
    public static String newGeneration() {
        return "g" + ZonedDateTime.now(ZoneOffset.UTC).format(STAMP) + "-"
                + Long.toHexString(RANDOM.nextLong() & 0xffffffffffL);
    }

    /** Whether this is one part of a distributed write. */
    public boolean isPart() {
        return part >= 0;
    }

    /** The prefix all of this writer's objects go below: {@code <prefix>/<generation>[/<directory>]}. */
    public String objectPrefix() {
        String generationPrefix = GenerationalDatasetWriter.objectKey(prefix, generation, "");
        return directory.isEmpty() ? generationPrefix.substring(0, generationPrefix.length() - 1)
                : generationPrefix + directory;
    }
}
