package io.layoutbench.loader;

import io.layoutbench.api.dataset.Sample;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An epoch's batches decoded by worker threads ({@link Epoch#decoded}): each batch is decoded whole by one worker,
 * up to one batch per worker ahead of the consumer, and handed out in order, so the order and
 * {@link Epoch#state()} do not depend on the number of workers. A decoder's exception is rethrown by {@link #next()}
 * (unchecked ones as they are, checked ones wrapped in an {@link IllegalStateException} naming the batch).
 *
 * <pre>{@code
 * try (DecodedBatches<BufferedImage> images = epoch.decoded(s -> ImageIO.read(s.field("jpg").openStream()))) {
 *     while (images.hasNext()) {
 *         train(images.next());
 *     }
 * }
 * }</pre>
 *
 * @param <T> what a sample decodes to
 */
public final class DecodedBatches<T> implements Iterator<List<T>>, AutoCloseable {

    private static final AtomicInteger POOLS = new AtomicInteger();

    private final Epoch epoch;
    private final Decoder<? extends T> decoder;
    private final ExecutorService workers;
    private final int ahead;
    private final Deque<Pending<T>> pending = new ArrayDeque<>();
    private long batchNumber;

    /**
     * Turns a sample into what a training step takes; may throw (an undecodable image fails the batch).
     *
     * @param <T> the result
     */
    @FunctionalInterface
    public interface Decoder<T> {
        T decode(Sample sample) throws Exception;
    }

    private record Pending<T>(long batch, int size, Future<List<T>> decoded) {
    }

    DecodedBatches(Epoch epoch, Decoder<? extends T> decoder, int workers) {
        this.epoch = epoch;
        this.decoder = decoder;
        this.ahead = workers;
        int pool = POOLS.incrementAndGet();
        AtomicInteger threads = new AtomicInteger();
        this.workers = Executors.newFixedThreadPool(workers, task -> {
            Thread thread = new Thread(task, "layoutbench-loader-" + pool + "-worker-" + threads.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        epoch.onClose(this.workers::shutdownNow);   // closing the epoch alone stops the workers too
    }

    @Override
    public boolean hasNext() {
        return !pending.isEmpty() || epoch.hasNext();
    }

    @Override
    public List<T> next() {
        while (pending.size() < ahead && epoch.hasNext()) {
            List<Sample> batch = epoch.nextBatch();
            long number = batchNumber++;
            pending.addLast(new Pending<>(number, batch.size(), workers.submit(() -> decode(batch))));
        }
        Pending<T> head = pending.pollFirst();
        if (head == null) {
            throw new NoSuchElementException("Epoch " + epoch.epoch() + " is over");
        }
        List<T> decoded;
        try {
            decoded = head.decoded().get();
        } catch (InterruptedException e) {
            pending.addFirst(head);   // not handed out: a retry takes it again

            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while decoding batch " + head.batch(), e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException("Decoding batch " + head.batch() + " of epoch " + epoch.epoch()
                    + " failed: " + cause, cause);
        } finally {
            if (pending.peekFirst() != head) {
                // Handed out, decoded or failed: a consumer that goes on past a failed batch has had it, and a
                // state saved later must not give it again.
                epoch.handedOut(head.size());
            }
        }
        return decoded;
    }

    private List<T> decode(List<Sample> batch) throws Exception {
        List<T> decoded = new ArrayList<>(batch.size());
        for (Sample sample : batch) {
            decoded.add(decoder.decode(sample));
        }
        return decoded;
    }

    @Override
    public void close() {
        workers.shutdownNow();
        epoch.close();
    }
}
