package io.layoutbench.parquet;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;

/**
 * The pages of one column chunk, from its offset index and (when written) its column index: enough to fetch only the
 * pages that hold given rows, or to skip pages whose bounds rule a predicate out.
 *
 * <pre>{@code
 * ColumnPageIndex index = object.pageIndex(2, "image_bytes");
 * List<PageInfo> needed = index.pagesFor(new int[] {5, 6, 700});   // the pages holding rows 5, 6 and 700
 * }</pre>
 *
 * @param rowGroup the row group's index
 * @param column   the column's physical name
 * @param pages    the data pages, in order
 */
public record ColumnPageIndex(int rowGroup, String column, List<PageInfo> pages) {

    public ColumnPageIndex {
        requireNonNull(column, "column is null");
        pages = List.copyOf(requireNonNull(pages, "pages is null"));
    }

    /**
     * The position in {@link #pages()} of the page holding row {@code rowInGroup}.
     *
     * @throws IndexOutOfBoundsException if no page holds it
     */
    public int pageOf(long rowInGroup) {
        int low = 0;
        int high = pages.size() - 1;
        while (low <= high) {
            int mid = (low + high) >>> 1;
            PageInfo page = pages.get(mid);
            if (rowInGroup < page.firstRow()) {
                high = mid - 1;
            } else if (rowInGroup >= page.firstRow() + page.rowCount()) {
                low = mid + 1;
            } else {
                return mid;
            }
        }
        throw new IndexOutOfBoundsException("Row " + rowInGroup + " is in no page of column " + column
                + " in row group " + rowGroup + " (" + pages.size() + " pages)");
    }

    /** The distinct pages holding {@code rowsInGroup} (ascending), in order. */
    public List<PageInfo> pagesFor(int[] rowsInGroup) {
        List<PageInfo> needed = new ArrayList<>();
        PageInfo last = null;
        for (int row : rowsInGroup) {
            if (last != null && last.containsRow(row)) {
                continue;
            }
            PageInfo page = pages.get(pageOf(row));
            if (page != last) {
                needed.add(page);
                last = page;
            }
        }
        return needed;
    }
}
