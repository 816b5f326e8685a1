package io.layoutbench.backend.s3;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * An HTTP/1.1 proxy on {@code 127.0.0.1} between a client and a real S3 server that injects faults into chosen
 * requests: an error status without forwarding the request, a TCP reset before the response or in the middle of
 * its body, or a stall (the response is held until the client gives up and closes the connection).
 *
 * <p>Faults are queued with {@link #inject} and applied in order to the next requests that match; every other
 * request passes through unchanged. Every request is recorded ({@link #requests()}), so a test can compare what went
 * over the wire with what the client counted. It parses just enough HTTP to find request and response boundaries
 * (Content-Length and chunked bodies, bodiless HEAD/204/304 responses); clients must not pipeline, which S3 clients
 * do not.
 */
final class FaultInjectingProxy implements Closeable {

    /** One request as it arrived. */
    record Request(String method, String target, Map<String, String> headers) {
        /** The {@code Range} header, or null. */
        String range() {
            return headers.get("range");
        }

        /** Whether this is a GET of an object (not a listing). */
        boolean isObjectGet() {
            return method.equals("GET") && !target.contains("list-type") && target.indexOf('/', 1) > 0;
        }
    }

    /** What to do to one request. */
    sealed interface Fault permits Status, ResetBeforeResponse, ResetAfterBodyBytes, Stall, StallAfterBodyBytes {
    }

    /** Answer with this status and S3 error code, without forwarding the request. */
    record Status(int code, String errorCode) implements Fault {
    }

    /** Forward nothing; reset the connection once the request has arrived. */
    record ResetBeforeResponse() implements Fault {
    }

    /** Forward the request, relay the response head and {@code bodyBytes} of its body, then reset. */
    record ResetAfterBodyBytes(long bodyBytes) implements Fault {
    }

    /** Forward nothing and never answer; the connection stays open until the client closes it. */
    record Stall() implements Fault {
    }

    /** Forward the request, relay the response head and {@code bodyBytes} of its body, then hold the rest. */
    record StallAfterBodyBytes(long bodyBytes) implements Fault {
    }

    private static final Fault PASS = null;
    private static final AtomicInteger THREAD_IDS = new AtomicInteger();

    private final InetSocketAddress upstream;
    private final ServerSocket server;
    private final List<Request> requests = new ArrayList<>();
    private final Deque<Rule> rules = new ArrayDeque<>();
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final AtomicInteger connections = new AtomicInteger();
    private final AtomicInteger faultsApplied = new AtomicInteger();
    private volatile boolean closed;

    private record Rule(Predicate<Request> matches, Fault fault) {
    }

    private FaultInjectingProxy(URI upstream) throws IOException {
        this.upstream = new InetSocketAddress(upstream.getHost(), upstream.getPort());
        this.server = new ServerSocket(0, 200, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::acceptLoop, "fault-proxy-accept-" + THREAD_IDS.incrementAndGet());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** A proxy in front of the HTTP server at {@code upstream}. */
    static FaultInjectingProxy start(URI upstream) {
        try {
            return new FaultInjectingProxy(upstream);
        } catch (IOException e) {
            throw new IllegalStateException("Cannot start the fault proxy: " + e, e);
        }
    }

    /** The proxy's URL, to use as the client's endpoint. */
    URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getLocalPort());
    }

    /** Applies {@code faults}, one each, to the next requests that match {@code matches}. */
    synchronized void inject(Predicate<Request> matches, Fault... faults) {
        for (Fault fault : faults) {
            rules.add(new Rule(matches, requireNonNull(fault, "fault is null")));
        }
    }

    /** Applies {@code fault} to every request that matches, until {@link #clearFaults()}. */
    synchronized void injectAlways(Predicate<Request> matches, Fault fault) {
        for (int i = 0; i < 10_000; i++) {
            rules.add(new Rule(matches, fault));
        }
    }

    /** Drops the faults not yet applied. */
    synchronized void clearFaults() {
        rules.clear();
    }

    /** The requests seen so far, in arrival order. */
    synchronized List<Request> requests() {
        return List.copyOf(requests);
    }

    /** Forgets the requests seen so far. */
    synchronized void clearRequests() {
        requests.clear();
    }

    /** The number of faults applied so far. */
    int faultsApplied() {
        return faultsApplied.get();
    }

    /** The number of client connections accepted so far. */
    int connections() {
        return connections.get();
    }

    /** The number of connections still open (client or upstream side). */
    int openSockets() {
        return sockets.size();
    }

    @Override
    public void close() {
        closed = true;
        try {
            server.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        for (Socket socket : sockets) {
            closeQuietly(socket);
        }
    }

    private synchronized Fault record(Request request) {
        requests.add(request);
        for (var it = rules.iterator(); it.hasNext(); ) {
            Rule rule = it.next();
            if (rule.matches().test(request)) {
                it.remove();
                faultsApplied.incrementAndGet();
                return rule.fault();
            }
        }
        return PASS;
    }

    private void acceptLoop() {
        while (!closed) {
            Socket client;
            try {
                client = server.accept();
            } catch (IOException e) {
                return;   // closed
            }
            connections.incrementAndGet();
            sockets.add(client);
            Thread thread = new Thread(() -> serve(client), "fault-proxy-conn-" + THREAD_IDS.incrementAndGet());
            thread.setDaemon(true);
            thread.start();
        }
    }

    // ---- one client connection ---------------------------------------------------------------------------

    /** What the response pump does with the next response. */
    private record Expect(String method, Fault fault) {
    }

    private void serve(Socket client) {
        Socket up = new Socket();
        sockets.add(up);
        BlockingQueue<Expect> expected = new LinkedBlockingQueue<>();
        try {
            client.setTcpNoDelay(true);
            up.setTcpNoDelay(true);
            up.connect(upstream);
            InputStream fromClient = new BufferedInputStream(client.getInputStream(), 64 * 1024);
            OutputStream toClient = client.getOutputStream();
            OutputStream toUpstream = up.getOutputStream();
            Thread responses = new Thread(() -> pumpResponses(up, client, expected),
                    "fault-proxy-resp-" + THREAD_IDS.incrementAndGet());
            responses.setDaemon(true);
            responses.start();
            while (!closed) {
                byte[] head = readHead(fromClient);
                if (head == null) {
                    break;   // the client closed the connection
                }
                Request request = parseRequest(head);
                Fault fault = record(request);
                long bodyLength = requestBodyLength(request);
                if (fault instanceof Status status) {
                    skip(fromClient, bodyLength);
                    writeErrorResponse(toClient, status);
                } else if (fault instanceof ResetBeforeResponse) {
                    reset(client);
                    break;
                } else if (fault instanceof Stall) {
                    // Hold: read (and drop) whatever the client sends until it closes the connection.
                    while (fromClient.read() >= 0) {
                        // nothing
                    }
                    break;
                } else {
                    expected.put(new Expect(request.method(), fault));
                    toUpstream.write(head);
                    copy(fromClient, toUpstream, bodyLength);
                    toUpstream.flush();
                }
            }
        } catch (IOException e) {
            // the client or the server went away: close both sides
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            closeQuietly(client);
            closeQuietly(up);
        }
    }

    private void pumpResponses(Socket up, Socket client, BlockingQueue<Expect> expected) {
        try {
            InputStream fromUpstream = new BufferedInputStream(up.getInputStream(), 64 * 1024);
            OutputStream toClient = client.getOutputStream();
            while (!closed) {
                Expect expect = expected.take();
                byte[] head = readHead(fromUpstream);
                if (head == null) {
                    break;
                }
                Map<String, String> headers = parseHeaders(head);
                int status = Integer.parseInt(new String(head, 0, 12, ISO_8859_1).substring(9, 12));
                boolean noBody = expect.method().equals("HEAD") || status == 204 || status == 304
                        || (status >= 100 && status < 200);
                synchronized (toClient) {
                    toClient.write(head);
                    if (expect.fault() instanceof ResetAfterBodyBytes reset) {
                        copy(fromUpstream, toClient, reset.bodyBytes());
                        toClient.flush();
                        reset(client);
                        closeQuietly(up);
                        return;
                    }
                    if (expect.fault() instanceof StallAfterBodyBytes stall) {
                        copy(fromUpstream, toClient, stall.bodyBytes());
                        toClient.flush();
                        return;   // hold: the request thread closes both sides when the client gives up
                    }
                    if (noBody) {
                        toClient.flush();
                        continue;
                    }
                    String length = headers.get("content-length");
                    if (length != null) {
                        copy(fromUpstream, toClient, Long.parseLong(length.trim()));
                    } else if ("chunked".equalsIgnoreCase(headers.getOrDefault("transfer-encoding", ""))) {
                        copyChunked(fromUpstream, toClient);
                    } else {
                        fromUpstream.transferTo(toClient);   // delimited by the connection closing
                    }
                    toClient.flush();
                }
            }
        } catch (IOException e) {
            // one side went away
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            if (closed) {
                closeQuietly(client);
            }
        }
    }

    // ---- HTTP framing ------------------------------------------------------------------------------------

    private static byte[] readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream(512);
        int matched = 0;
        while (matched < 4) {
            int b = in.read();
            if (b < 0) {
                if (head.size() == 0) {
                    return null;
                }
                throw new EOFException("Connection closed in the middle of an HTTP head");
            }
            head.write(b);
            matched = (b == '\r' && (matched == 0 || matched == 2)) || (b == '\n' && (matched == 1 || matched == 3))
                    ? matched + 1 : (b == '\r' ? 1 : 0);
        }
        return head.toByteArray();
    }

    private static Request parseRequest(byte[] head) {
        String text = new String(head, ISO_8859_1);
        String[] line = text.substring(0, text.indexOf("\r\n")).split(" ");
        return new Request(line[0], line[1], parseHeaders(head));
    }

    private static Map<String, String> parseHeaders(byte[] head) {
        String text = new String(head, ISO_8859_1);
        Map<String, String> headers = new TreeMap<>();
        String[] lines = text.split("\r\n");
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon > 0) {
                headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT),
                        lines[i].substring(colon + 1).trim());
            }
        }
        return headers;
    }

    private static long requestBodyLength(Request request) throws IOException {
        if (request.headers().containsKey("transfer-encoding")) {
            throw new IOException("The fault proxy does not relay chunked request bodies");
        }
        String length = request.headers().get("content-length");
        return length == null ? 0 : Long.parseLong(length.trim());
    }

    private static void copy(InputStream in, OutputStream out, long length) throws IOException {
        byte[] buffer = new byte[64 * 1024];
        long left = length;
        while (left > 0) {
            int n = in.read(buffer, 0, (int) Math.min(buffer.length, left));
            if (n < 0) {
                throw new EOFException("Stream ended " + left + " bytes early");
            }
            out.write(buffer, 0, n);
            left -= n;
        }
    }

    private static void skip(InputStream in, long length) throws IOException {
        copy(in, OutputStream.nullOutputStream(), length);
    }

    private static void copyChunked(InputStream in, OutputStream out) throws IOException {
        while (true) {
            String sizeLine = readLine(in);
            out.write((sizeLine + "\r\n").getBytes(ISO_8859_1));
            int semicolon = sizeLine.indexOf(';');
            long size = Long.parseLong((semicolon >= 0 ? sizeLine.substring(0, semicolon) : sizeLine).trim(), 16);
            if (size == 0) {
                String trailer;
                do {
                    trailer = readLine(in);
                    out.write((trailer + "\r\n").getBytes(ISO_8859_1));
                } while (!trailer.isEmpty());
                return;
            }
            copy(in, out, size + 2);   // the chunk and its CRLF
        }
    }

    private static String readLine(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        int b;
        while ((b = in.read()) != '\n') {
            if (b < 0) {
                throw new EOFException("Connection closed in a chunk header");
            }
            if (b != '\r') {
                line.append((char) b);
            }
        }
        return line.toString();
    }

    private static void writeErrorResponse(OutputStream out, Status status) throws IOException {
        byte[] body = ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>" + status.errorCode()
                + "</Code><Message>Injected by the fault proxy</Message><RequestId>fault</RequestId></Error>")
                .getBytes(UTF_8);
        String head = "HTTP/1.1 " + status.code() + " " + reason(status.code()) + "\r\n"
                + "Content-Type: application/xml\r\n"
                + "Content-Length: " + body.length + "\r\n"
                + "x-amz-request-id: fault\r\n\r\n";
        synchronized (out) {
            out.write(head.getBytes(ISO_8859_1));
            out.write(body);
            out.flush();
        }
    }

    private static String reason(int code) {
        return switch (code) {
            case 403 -> "Forbidden";
            case 404 -> "Not Found";
            case 500 -> "Internal Server Error";
            case 503 -> "Slow Down";
            default -> "Error";
        };
    }

    private void reset(Socket socket) {
        try {
            socket.setSoLinger(true, 0);   // close with RST instead of FIN
        } catch (SocketException ignored) {
            // already closed
        }
        closeQuietly(socket);
    }

    private void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        sockets.remove(socket);
    }
}
