package io.layoutbench.layouts.l3;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.layout.PlannedRequest;
import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.layout.RangeCoalescer;
import io.layoutbench.api.layout.ResultRange;
import io.layoutbench.api.layout.RetrievalMode;
import io.layoutbench.api.metrics.RequestKind;
import io.layoutbench.api.predicate.BoundQuery;
import io.layoutbench.api.predicate.GroupStatistics;
import io.layoutbench.api.predicate.Selection;
import io.layoutbench.parquet.ColumnPageIndex;
import io.layoutbench.parquet.PageInfo;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * L3's planner, shared by its datasets (over part files whose footers, metadata and page indexes they load) and its
 * model (over part files modelled from a dataset's metadata): one planning code, so a model's plan is the plan the
 * written dataset makes.
 *
 * <p>A query loads the footers of all parts and skips row groups whose statistics rule the predicate out (a part with
 * a metadata file gives none, its row groups' metadata loaded with it); it evaluates the predicate on the metadata
 * columns of the others (loaded many at a time; under a LIMIT, in optimized
 * mode a read-ahead that doubles each round, in paper mode one at a time, as DuckDB reads them). Then paper mode reads
 * whole each row group that holds a match, one request per column chunk (as DuckDB reads a row group), and optimized
 * mode reads the blob pages holding matches, found in the part's page index, pages within the coalescing gap of each
 * other in one request (the gap lowered to keep the read budget, {@link RangeCoalescer#gapWithinBudget}).
 * {@code LIMIT n} stops at the n-th match in dataset order (part, row group, row).
 *
 * <pre>{@code
 * L3Planner.Plan<RowGroupMetadata> plan = L3Planner.plan(catalog, query.bind(schema), options);
 * for (L3Planner.Read<RowGroupMetadata> read : plan.reads()) { ... }
 * }</pre>
 */
final class L3Planner {

    /** Footers loaded at once, at most. */
    static final int MAX_FOOTERS_IN_FLIGHT = 32;
    /**
     * Row groups whose metadata columns are loaded at once, at most (fewer under a LIMIT, see {@link #match}): as many
     * as the query keeps reads of {@value #METADATA_READ_BYTES} bytes in flight ({@link QueryOptions#readsInFlight}),
     * and no more than this, since each holds its row group's decoded metadata until the loop reaches it. It was 16,
     * which made a cold query over many small row groups a series of rounds: fac's row groups (then 256 KiB), 440 at
     * tiny, took 28 rounds of a first-byte latency before a byte of payload was read.
     */
    static final int MAX_METADATA_IN_FLIGHT = 256;
    /** The size of a row group's metadata read, for the reads in flight: small chunks of a few columns. */
    static final long METADATA_READ_BYTES = 64 << 10;

    private L3Planner() {
    }

    /** One part file as the planner sees it once its footer is loaded. */
    interface Part {
        /** Position among the dataset's parts. */
        int index();

        /** The part's object key. */
        String key();

        /** The reads opening the part took (or would take): its footer and, if it has one, its metadata file. */
        List<PlannedRequest> footerRequests();

        /**
         * Round trips opening the part takes: its footer's reads one after another, with a metadata file read side
         * by side.
         */
        default int openRounds() {
            return footerRequests().size();
        }

        int rowGroupCount();

        /** Row group {@code rowGroup}'s statistics from the footer, keyed by metadata column name. */
        GroupStatistics statistics(int rowGroup);

        /** Every column chunk of row group {@code rowGroup}, in file order: what paper mode reads. */
        List<ByteRange> chunkRanges(int rowGroup);

        /** Blob column {@code column}'s page index of row group {@code rowGroup}, once the page indexes are loaded. */
        ColumnPageIndex blobPages(int rowGroup, String column);
    }

    /**
     * The part files of one dataset and what loading their metadata takes; {@code G} is a row group's loaded
     * metadata.
     */
    interface Catalog<G> {
        /** Every part, footers loaded (through {@code reads}) {@code window} at a time where not loaded yet. */
        List<? extends Part> parts(ObjectBackend reads, int window);

        /** Row group {@code rowGroup}'s metadata columns, loaded through {@code reads} on first use. */
        CompletableFuture<G> metadata(Part part, int rowGroup, ObjectBackend reads);

        /** The reads loading {@code metadata} took (or would take). */
        List<PlannedRequest> loadRequests(G metadata);

        /** The rows of the row group {@code query} selects, as positions in the row group, LIMIT applied. */
        Selection select(G metadata, BoundQuery query);

        /** Sum of the sizes of {@code rows} (positions in the row group). */
        long payloadBytes(G metadata, int[] rows);

        /** Loads the part's page indexes through {@code reads}; completes with the reads it took (or would). */
        CompletableFuture<List<PlannedRequest>> pageIndexes(Part part, ObjectBackend reads);
    }

    /**
     * One read task: requests reading the blobs of some rows of one row group.
     *
     * @param part          the part
     * @param rowGroup      the row group in the part
     * @param metadata      the row group's metadata, which the rows index
     * @param rows          positions in the row group, ascending
     * @param requests      what the task sends: every column chunk (whole row group) or one span of pages
     * @param wholeRowGroup whether it reads the whole row group (paper mode) rather than blob pages
     */
    record Read<G>(Part part, int rowGroup, G metadata, int[] rows, List<PlannedRequest> requests,
            boolean wholeRowGroup) {
        Read {
            requireNonNull(part, "part is null");
            requests = List.copyOf(requests);
        }
    }

    /**
     * A query's plan.
     *
     * @param coldRequests   the metadata reads a client with empty caches makes, in order
     * @param metadataRounds round trips those reads take one after another
     * @param reads          the blob reads, in dataset order
     * @param samples        samples the reads return
     * @param payloadBytes   sum of their sizes
     */
    record Plan<G>(List<PlannedRequest> coldRequests, int metadataRounds, List<Read<G>> reads, long samples,
            long payloadBytes) {
    }

    /** Plans {@code query} over {@code catalog} reading the blob column {@code image_bytes}. */
    static <G> Plan<G> plan(Catalog<G> catalog, ObjectBackend reads, BoundQuery query, QueryOptions options) {
        Matches<G> matches = match(catalog, reads, query, options, List.of(L3Layout.IMAGE_BYTES));
        return new Plan<>(matches.coldRequests(), matches.metadataRounds(), matches.reads(matches.all()),
                matches.samples(), matches.payloadBytes());
    }

    /**
     * A query's matches: the rows of each row group with a match, numbered in dataset order from 0 (a result
     * position), with what finding them took; {@link #reads} plans the reads of any positions.
     *
     * @param coldRequests   the metadata reads a client with empty caches makes, in order
     * @param metadataRounds round trips those reads take one after another
     * @param groups         row groups with matches, in dataset order
     * @param samples        matches in all
     * @param payloadBytes   sum of their sizes
     */
    record Matches<G>(Catalog<G> catalog, QueryOptions options, List<String> columns, List<PlannedRequest> coldRequests,
            int metadataRounds, List<Group<G>> groups, long samples, long payloadBytes) {

        /** Every position. */
        List<ResultRange> all() {
            return samples == 0 ? List.of() : List.of(new ResultRange(0, samples));
        }

        /** The reads of the matches at the positions of {@code ranges}, at their own gap. */
        List<Read<G>> reads(List<ResultRange> ranges) {
            return reads(ranges, -1);
        }

        /**
         * The gap a read of the matches at the positions of {@code ranges} may use: the derived gap, lowered to keep
         * the read budget over their blob pages (0 in paper mode).
         */
        long gap(List<ResultRange> ranges) {
            if (options.mode() == RetrievalMode.PAPER || columns.isEmpty()) {
                return 0;
            }
            Picked<G> picked = pick(ranges);
            return gapOver(picked.groups().isEmpty() ? List.of() : picked.pages(columns.get(0)));
        }

        /** The gap the read budget allows over {@code pagesOfGroups} (optimized mode). */
        private long gapOver(List<List<PageInfo>> pagesOfGroups) {
            long gap = RangeCoalescer.gapFor(options);
            if (pagesOfGroups.isEmpty()) {
                return gap;
            }
            // Row groups of one part lie apart, so the gaps between their pages are counted per row group.
            return RangeCoalescer.gapWithinBudget(pagesOfGroups.stream()
                    .map(pages -> pages.stream().map(PageInfo::byteRange).toList()).toList(), gap,
                    options.maxReadAmplification());
        }

        /**
         * The reads of the matches at the positions of {@code ranges} (ascending, apart): paper mode reads each row
         * group holding one whole; optimized mode reads their blob pages, pages of a row group within {@code gap}
         * of each other in one request (a negative gap: the one their own read budget allows, {@link #gap}).
         */
        List<Read<G>> reads(List<ResultRange> ranges, long gap) {
            Picked<G> picked = pick(ranges);
            List<Read<G>> tasks = new ArrayList<>();
            if (columns.isEmpty()) {
                // No payload asked for: the rows' metadata, read while matching, is the whole answer.
                for (int g = 0; g < picked.groups().size(); g++) {
                    Group<G> group = picked.groups().get(g);
                    tasks.add(new Read<>(group.candidate().part(), group.candidate().rowGroup(), group.metadata(),
                            picked.rows().get(g), List.of(), false));
                }
                return tasks;
            }
            if (options.mode() == RetrievalMode.PAPER) {
                for (int g = 0; g < picked.groups().size(); g++) {
                    tasks.add(wholeRowGroup(picked.groups().get(g).candidate(), picked.groups().get(g).metadata(),
                            picked.rows().get(g)));
                }
                return tasks;
            }
            List<List<PageInfo>> pagesOfGroups = picked.pages(columns.get(0));
            long merging = gap < 0 ? gapOver(pagesOfGroups) : gap;
            long maxMerged = RangeCoalescer.maxMergedBytesFor(options);
            for (int g = 0; g < picked.groups().size(); g++) {
                tasks.addAll(pageRuns(picked.groups().get(g), picked.rows().get(g), pagesOfGroups.get(g), merging,
                        maxMerged, columns));
            }
            return tasks;
        }

        /**
         * The groups holding positions of {@code ranges}, and their rows at those positions; the first is found by
         * a binary search, so a small part of a large result costs little.
         */
        private Picked<G> pick(List<ResultRange> ranges) {
            List<Group<G>> picked = new ArrayList<>();
            List<int[]> pickedRows = new ArrayList<>();
            int first = 0;
            int last = groups.size();
            long firstPosition = ranges.isEmpty() ? Long.MAX_VALUE : ranges.get(0).from();
            while (first < last) {
                int middle = (first + last) >>> 1;
                Group<G> group = groups.get(middle);
                if (group.start() + group.rows().length <= firstPosition) {
                    first = middle + 1;
                } else {
                    last = middle;
                }
            }
            int r = 0;
            for (Group<G> group : groups.subList(first, groups.size())) {
                long end = group.start() + group.rows().length;
                while (r < ranges.size() && ranges.get(r).to() <= group.start()) {
                    r++;
                }
                if (r == ranges.size()) {
                    break;
                }
                if (ranges.get(r).from() >= end) {
                    continue;
                }
                int[] rows = new int[group.rows().length];
                int count = 0;
                for (int q = r; q < ranges.size() && ranges.get(q).from() < end; q++) {
                    int from = (int) (Math.max(ranges.get(q).from(), group.start()) - group.start());
                    int to = (int) (Math.min(ranges.get(q).to(), end) - group.start());
                    System.arraycopy(group.rows(), from, rows, count, to - from);
                    count += to - from;
                }
                picked.add(group);
                pickedRows.add(count == rows.length ? rows : Arrays.copyOf(rows, count));
            }
            return new Picked<>(picked, pickedRows);
        }

        /** Sum of the sizes of the reads' rows. */
        long payloadBytes(List<Read<G>> reads) {
            if (columns.isEmpty()) {
                return 0;
            }
            long bytes = 0;
            for (Read<G> read : reads) {
                bytes += catalog.payloadBytes(read.metadata(), read.rows());
            }
            return bytes;
        }
    }

    /** Groups and the rows of each a read takes. */
    private record Picked<G>(List<Group<G>> groups, List<int[]> rows) {
        /** The blob pages of column {@code column} holding each group's rows. */
        List<List<PageInfo>> pages(String column) {
            List<List<PageInfo>> pages = new ArrayList<>(groups.size());
            for (int g = 0; g < groups.size(); g++) {
                Candidate candidate = groups.get(g).candidate();
                pages.add(candidate.part().blobPages(candidate.rowGroup(), column).pagesFor(rows.get(g)));
            }
            return pages;
        }
    }

    /**
     * A row group's matches.
     *
     * @param rows  positions in the row group, ascending
     * @param start the result position of its first match
     */
    record Group<G>(Candidate candidate, G metadata, int[] rows, long start) {
    }

    /**
     * Finds {@code query}'s matches over {@code catalog}, loading what is not cached through {@code reads}, to read
     * blob columns {@code columns} (the fields asked for): the first decides the page runs, and each run reads the
     * span of the others' pages holding its rows, one request per column.
     */
    static <G> Matches<G> match(Catalog<G> catalog, ObjectBackend reads, BoundQuery query, QueryOptions options,
            List<String> columns) {
        int footerWindow = Math.min(options.maxConcurrency(), MAX_FOOTERS_IN_FLIGHT);
        List<? extends Part> parts = catalog.parts(reads, footerWindow);
        List<PlannedRequest> cold = new ArrayList<>();
        List<Candidate> candidates = new ArrayList<>();
        // Round trips of a cold load, for prediction: footers go footerWindow at a time (a footer larger than the
        // tail takes a second trip), row-group metadata window at a time, then the page indexes side by side.
        int longestFooter = 0;
        for (Part part : parts) {
            longestFooter = Math.max(longestFooter, part.openRounds());
            cold.addAll(part.footerRequests());
            for (int g = 0; g < part.rowGroupCount(); g++) {
                if (!query.prune(part.statistics(g)).canSkip()) {
                    candidates.add(new Candidate(part, g));
                }
            }
        }
        long remaining = query.limit().orElse(Long.MAX_VALUE);
        boolean paper = options.mode() == RetrievalMode.PAPER;
        // Under a LIMIT, optimized mode reads row groups' metadata ahead only as far as the groups already read: one,
        // then one more, then two, four ... (a read-ahead that doubles each round), so a limit met early wastes few
        // reads and one met late takes log2(groups) rounds, not one round per group. Paper mode reads one row group
        // at a time, as DuckDB does. The reads sent ahead when the limit is met are awaited and counted, so the
        // plan's cold reads are exactly those a cold run makes.
        int fullWindow = Math.min(options.readsInFlight(METADATA_READ_BYTES), MAX_METADATA_IN_FLIGHT);
        boolean limited = query.limit().isPresent();
        Deque<CompletableFuture<G>> inFlight = new ArrayDeque<>();
        List<Group<G>> groups = new ArrayList<>();
        // Optimized reads need the blob page index of each part with matches: loaded in the background, all at once,
        // while the loop goes on, and waited for once the loop is done.
        List<CompletableFuture<List<PlannedRequest>>> pageIndexLoads = new ArrayList<>();
        long samples = 0;
        long payload = 0;
        int next = 0;
        int metadataLoads = 0;
        int metadataReads = 0;   // loads that sent a request: a part's metadata file was read when it was opened
        for (int c = 0; c < candidates.size() && remaining > 0; c++) {
            int window = !limited ? fullWindow : paper ? 1 : Math.min(fullWindow, Math.max(1, metadataLoads));
            while (next < candidates.size() && inFlight.size() < window) {
                Candidate ahead = candidates.get(next++);
                inFlight.add(catalog.metadata(ahead.part(), ahead.rowGroup(), reads));
            }
            Candidate candidate = candidates.get(c);
            G metadata = ObjectBackend.await(inFlight.poll());
            List<PlannedRequest> loaded = catalog.loadRequests(metadata);
            cold.addAll(loaded);
            metadataLoads++;
            metadataReads += loaded.isEmpty() ? 0 : 1;
            Selection matches = catalog.select(metadata, query);
            if (matches.size() > remaining) {
                matches = matches.limit(remaining);
            }
            int[] rows = matches.toArray();
            // No rows: nothing to fetch; DuckDB's filter on the metadata columns drops the row group, too.
            if (rows.length > 0) {
                groups.add(new Group<>(candidate, metadata, rows, samples));
                if (!paper && !columns.isEmpty()) {   // blob pages are located only to be read
                    pageIndexLoads.add(catalog.pageIndexes(candidate.part(), reads));
                }
            }
            samples += rows.length;
            payload += columns.isEmpty() ? 0 : catalog.payloadBytes(metadata, rows);
            remaining -= rows.length;
        }
        while (limited && !inFlight.isEmpty()) {   // sent ahead before the limit was met: a cold run reads them
            CompletableFuture<G> ahead = inFlight.poll();
            try {
                List<PlannedRequest> loaded = catalog.loadRequests(ObjectBackend.await(ahead));
                cold.addAll(loaded);
                metadataReads += loaded.isEmpty() ? 0 : 1;
            } catch (RuntimeException e) {
                // A row group past the limit could not be read: the result is complete without it, so the query
                // goes on; the plan does not count a read that brought nothing back.
            }
        }
        boolean[] pageIndexesCounted = new boolean[parts.size()];
        int pageIndexRounds = 0;
        for (int g = 0; g < pageIndexLoads.size(); g++) {
            Part part = groups.get(g).candidate().part();
            List<PlannedRequest> pageIndexReads = ObjectBackend.await(pageIndexLoads.get(g));
            if (!pageIndexesCounted[part.index()]) {
                pageIndexesCounted[part.index()] = true;
                cold.addAll(pageIndexReads);
                pageIndexRounds = Math.max(pageIndexRounds, pageIndexReads.size());   // the parts' loads overlap
            }
        }
        // Without a LIMIT every load sent was consumed; under one, those sent ahead were counted above.
        int rounds = (parts.size() + footerWindow - 1) / footerWindow * longestFooter
                + metadataRounds(metadataReads, limited ? (paper ? 1 : 0) : fullWindow, fullWindow) + pageIndexRounds;
        rounds = Math.max(cold.isEmpty() ? 0 : 1, Math.min(rounds, cold.size()));
        return new Matches<>(catalog, options, List.copyOf(columns), cold, rounds, List.copyOf(groups), samples,
                payload);
    }

    /**
     * Round trips of {@code loads} row-group metadata reads: {@code window} at a time; with window 0 the LIMIT
     * read-ahead, whose rounds send 1, 1, 2, 4 ... reads (as many as were read before, at most {@code fullWindow}).
     */
    static int metadataRounds(int loads, int window, int fullWindow) {
        if (window > 0) {
            return (loads + window - 1) / window;
        }
        int rounds = 0;
        for (long read = 0; read < loads; rounds++) {
            read += Math.min(fullWindow, Math.max(1, read));
        }
        return rounds;
    }

    /** Paper mode: every column chunk of the row group, one request each, as DuckDB reads a row group. */
    private static <G> Read<G> wholeRowGroup(Candidate candidate, G metadata, int[] rows) {
        Part part = candidate.part();
        List<PlannedRequest> requests = new ArrayList<>();
        for (ByteRange chunk : part.chunkRanges(candidate.rowGroup())) {
            requests.add(new PlannedRequest(RequestKind.RANGE_GET, part.key(), chunk));
        }
        return new Read<>(part, candidate.rowGroup(), metadata, rows, requests, true);
    }

    /**
     * Optimized mode: the blob pages holding the rows, grouped into runs of pages that lie within {@code gap} of
     * each other (and within {@code maxMerged} bytes); one read and one request per run.
     */
    private static <G> List<Read<G>> pageRuns(Group<G> group, int[] rows, List<PageInfo> pages, long gap,
            long maxMerged, List<String> columns) {
        Candidate candidate = group.candidate();
        Part part = candidate.part();
        List<RangeCoalescer.Merged> runs = RangeCoalescer.coalesce(pages.stream().map(PageInfo::byteRange).toList(),
                gap, maxMerged);
        List<Read<G>> reads = new ArrayList<>(runs.size());
        int from = 0;
        for (RangeCoalescer.Merged run : runs) {
            // Pages are in row order and offset order, so a run's members are consecutive pages.
            PageInfo last = pages.get(run.members().get(run.members().size() - 1));
            int to = from;
            while (to < rows.length && rows[to] < last.firstRow() + last.rowCount()) {
                to++;
            }
            int[] runRows = Arrays.copyOfRange(rows, from, to);
            List<PlannedRequest> requests = new ArrayList<>(columns.size());
            requests.add(new PlannedRequest(RequestKind.RANGE_GET, part.key(), run.range()));
            for (String column : columns.subList(1, columns.size())) {
                List<PageInfo> spanned = part.blobPages(candidate.rowGroup(), column).pagesFor(runRows);
                PageInfo first = spanned.get(0);
                PageInfo end = spanned.get(spanned.size() - 1);
                requests.add(new PlannedRequest(RequestKind.RANGE_GET, part.key(), ByteRange.between(first.offset(),
                        end.offset() + end.compressedSize())));
            }
            reads.add(new Read<>(part, candidate.rowGroup(), group.metadata(), runRows, requests,
                    false));
            from = to;
        }
        if (from != rows.length) {
            throw new IllegalStateException("Blob pages of row group " + candidate.rowGroup() + " of "
                    + part.key() + " do not cover row " + rows[from]);
        }
        return reads;
    }

    /** One row group of one part. */
    private record Candidate(Part part, int rowGroup) {
    }
}
