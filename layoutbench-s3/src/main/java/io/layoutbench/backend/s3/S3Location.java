package io.layoutbench.backend.s3;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.ConfigurationException;
import io.layoutbench.api.backend.ObjectKeys;

import java.net.URI;

/**
 * Where an {@link S3Backend} keeps its objects: a bucket and a key prefix, from {@code s3://bucket/prefix}.
 *
 * @param bucket the bucket
 * @param prefix empty, or a key prefix ending in {@code /}
 * @param uri    {@code s3://bucket/prefix/}
 */
record S3Location(String bucket, String prefix, URI uri) {

    S3Location {
        requireNonNull(bucket, "bucket is null");
        requireNonNull(prefix, "prefix is null");
        requireNonNull(uri, "uri is null");
    }

    /**
     * The location {@code uri} names.
     *
     * @throws ConfigurationException if it is not {@code s3://bucket[/prefix]}; the message never repeats
     *                                  credentials put in the URI
     */
    static S3Location parse(URI uri) {
        requireNonNull(uri, "uri is null");
        if (!"s3".equalsIgnoreCase(uri.getScheme()) || uri.isOpaque()) {
            throw new ConfigurationException("An S3 backend URI looks like s3://bucket/prefix; got '" + uri + "'");
        }
        if (uri.getRawUserInfo() != null) {
            // Do not echo the URI: the user info may be a secret.
            throw new ConfigurationException("An S3 backend URI must not hold credentials (s3://" + "user:secret@"
                    + "...); pass them as the properties accessKeyId and secretAccessKey, or use the default chain");
        }
        String bucket = uri.getRawAuthority();
        if (bucket == null || bucket.isEmpty()) {
            throw new ConfigurationException("An S3 backend URI must name a bucket, like s3://bucket/prefix; got '"
                    + uri + "'");
        }
        if (bucket.contains(":") || bucket.contains("%")) {
            throw new ConfigurationException("Invalid bucket name '" + bucket + "' in '" + uri
                    + "'; set a custom endpoint with the property endpoint, not in the URI");
        }
        if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
            throw new ConfigurationException("An S3 backend URI takes settings as properties, not as a query or"
                    + " fragment: got '" + uri + "'");
        }
        String path = uri.getPath() == null ? "" : uri.getPath();
        while (path.startsWith("/")) {
            path = path.substring(1);
        }
        while (path.endsWith("/")) {
            path = path.substring(0, path.length() - 1);
        }
        if (!path.isEmpty()) {
            try {
                ObjectKeys.check(path);
            } catch (IllegalArgumentException e) {
                throw new ConfigurationException("Invalid key prefix in the S3 backend URI '" + uri + "': "
                        + e.getMessage(), e);
            }
        }
        String prefix = path.isEmpty() ? "" : path + "/";
        return new S3Location(bucket, prefix, URI.create("s3://" + bucket + "/" + prefix));
    }

    /** The S3 key of the backend key {@code key}, after checking it. */
    String fullKey(String key) {
        return prefix + ObjectKeys.check(key);
    }
}
