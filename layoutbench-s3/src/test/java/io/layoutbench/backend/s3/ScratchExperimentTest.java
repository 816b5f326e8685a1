package io.layoutbench.backend.s3;

import io.layoutbench.s3.embedded.EmbeddedS3Server;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.core.async.AsyncResponseTransformer;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;

class ScratchExperimentTest {
    @TempDir Path dir;

    S3AsyncClient client(EmbeddedS3Server s3, URI endpoint, Integer retries) {
        var b = S3AsyncClient.crtBuilder().endpointOverride(endpoint).forcePathStyle(true).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(s3.accessKey(), s3.secretKey())))
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED);
        if (retries != null) b.retryConfiguration(r -> r.numRetries(retries));
        return b.build();
    }

    @Test
    void experiment() throws Exception {
        try (EmbeddedS3Server s3 = EmbeddedS3Server.start(dir); FaultInjectingProxy proxy = FaultInjectingProxy.start(s3.endpoint())) {
            s3.createBucket("bkt");
            try (S3AsyncClient direct = client(s3, s3.endpoint(), null)) {
                direct.putObject(r -> r.bucket("bkt").key("k"), AsyncRequestBody.fromBytes(new byte[1500])).join();
                direct.putObject(r -> r.bucket("bkt").key("empty"), AsyncRequestBody.fromBytes(new byte[0])).join();
            }
            for (Integer retries : new Integer[] {null, 0, 1}) {
                try (S3AsyncClient c = client(s3, proxy.endpoint(), retries)) {
                    proxy.clearRequests();
                    var r = c.getObject(q -> q.bucket("bkt").key("k").range("bytes=0-99"), AsyncResponseTransformer.toBytes()).join();
                    System.out.println("plain: requests=" + proxy.requests().size() + " len=" + r.asByteArray().length);
                    proxy.clearRequests();
                    proxy.inject(FaultInjectingProxy.Request::isObjectGet, new FaultInjectingProxy.Status(503, "SlowDown"));
                    long t = System.nanoTime();
                    try {
                        c.getObject(q -> q.bucket("bkt").key("k").range("bytes=0-99"), AsyncResponseTransformer.toBytes()).join();
                        System.out.println("retries=" + retries + " 503 once -> success, proxy saw " + proxy.requests().size() + " in " + (System.nanoTime()-t)/1e6 + " ms");
                    } catch (Exception e) {
                        System.out.println("retries=" + retries + " 503 once -> " + e + " proxy saw " + proxy.requests().size());
                    }
                    proxy.clearRequests();
                    proxy.inject(FaultInjectingProxy.Request::isObjectGet, new FaultInjectingProxy.ResetAfterBodyBytes(10));
                    try {
                        c.getObject(q -> q.bucket("bkt").key("k").range("bytes=0-99"), AsyncResponseTransformer.toBytes()).join();
                        System.out.println("retries=" + retries + " reset once -> success, proxy saw " + proxy.requests().size());
                    } catch (Exception e) {
                        System.out.println("retries=" + retries + " reset -> " + e + " proxy saw " + proxy.requests().size());
                    }
                    proxy.clearRequests();
                    proxy.clearFaults();
                    proxy.inject(FaultInjectingProxy.Request::isObjectGet, new FaultInjectingProxy.Status(500, "InternalError"),new FaultInjectingProxy.Status(500, "InternalError"),new FaultInjectingProxy.Status(500, "InternalError"),new FaultInjectingProxy.Status(500, "InternalError"),new FaultInjectingProxy.Status(500, "InternalError"));
                    t = System.nanoTime();
                    try {
                        c.getObject(q -> q.bucket("bkt").key("k").range("bytes=0-99"), AsyncResponseTransformer.toBytes()).join();
                        System.out.println("retries=" + retries + " 500x5 -> success, proxy saw " + proxy.requests().size());
                    } catch (Exception e) {
                        System.out.println("retries=" + retries + " 500x5 -> " + e + " proxy saw " + proxy.requests().size()+ " in " + (System.nanoTime()-t)/1e6 + " ms");
                    }
                    proxy.clearFaults();
                }
            }
            try (S3AsyncClient c = client(s3, proxy.endpoint(), 1)) {
                proxy.clearRequests();
                for (String range : new String[] {"bytes=1024-2047", "bytes=1500-1500", "bytes=5000-5009"}) {
                    try {
                        ResponseBytes<GetObjectResponse> r = c.getObject(q -> q.bucket("bkt").key("k").range(range), AsyncResponseTransformer.toBytes()).join();
                        System.out.println(range + " -> " + r.asByteArray().length + " " + r.response().contentRange() + " " + r.response().contentLength());
                    } catch (Exception e) {
                        var cause = e.getCause();
                        System.out.println(range + " -> " + cause);
                        if (cause instanceof software.amazon.awssdk.services.s3.model.S3Exception s) {
                            System.out.println("   status " + s.statusCode() + " code " + s.awsErrorDetails().errorCode() + " headers " + s.awsErrorDetails().sdkHttpResponse().headers());
                        }
                    }
                }
                for (String range : new String[] {"bytes=0-0", "bytes=0-99"}) {
                    try {
                        var r = c.getObject(q -> q.bucket("bkt").key("empty").range(range), AsyncResponseTransformer.toBytes()).join();
                        System.out.println("empty " + range + " -> " + r.asByteArray().length + " " + r.response().contentRange());
                    } catch (Exception e) {
                        System.out.println("empty " + range + " -> " + e.getCause());
                    }
                }
                System.out.println("requests " + proxy.requests());
                proxy.clearRequests();
                var r = c.getObject(q -> q.bucket("bkt").key("k"), AsyncResponseTransformer.toBytes()).join();
                System.out.println("whole -> " + r.asByteArray().length + " requests " + proxy.requests());
                proxy.clearRequests();
                try { c.headObject(q -> q.bucket("bkt").key("missing")).join(); } catch (Exception e) { System.out.println("head missing -> " + e.getCause()); }
                try { c.getObject(q -> q.bucket("bkt").key("missing").range("bytes=0-9"), AsyncResponseTransformer.toBytes()).join(); } catch (Exception e) { System.out.println("get missing -> " + e.getCause()); }
                try { c.getObject(q -> q.bucket("nobucket").key("missing").range("bytes=0-9"), AsyncResponseTransformer.toBytes()).join(); } catch (Exception e) { System.out.println("get nobucket -> " + e.getCause()); }
                // stall then cancel
                proxy.clearRequests();
                proxy.inject(FaultInjectingProxy.Request::isObjectGet, new FaultInjectingProxy.Stall());
                int before = proxy.openSockets();
                CompletableFuture<?> f = c.getObject(q -> q.bucket("bkt").key("k").range("bytes=0-9"), AsyncResponseTransformer.toBytes());
                Thread.sleep(500);
                System.out.println("stall open sockets before " + before + " during " + proxy.openSockets() + " done=" + f.isDone());
                f.cancel(true);
                Thread.sleep(500);
                System.out.println("after cancel open sockets " + proxy.openSockets());
                proxy.inject(FaultInjectingProxy.Request::isObjectGet, new FaultInjectingProxy.StallAfterBodyBytes(5));
                f = c.getObject(q -> q.bucket("bkt").key("k").range("bytes=0-9"), AsyncResponseTransformer.toBytes());
                Thread.sleep(500);
                System.out.println("stall2 during " + proxy.openSockets() + " done=" + f.isDone());
                f.cancel(true);
                Thread.sleep(500);
                System.out.println("after cancel2 open sockets " + proxy.openSockets());
            }
        }
    }
}
