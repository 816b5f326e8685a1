package io.layoutbench.datasets.ingest;

import java.util.Iterator;

/**
 * One pass over the files a source lists, in the source's order. A source can start a pass at any time, so an error
 * about one entry can name an earlier one by walking the listing again. Close it to release what it holds open
 * (a manifest's reader).
 */
interface FileListing extends Iterator<FileEntry>, AutoCloseable {

    @Override
    void close();
}
