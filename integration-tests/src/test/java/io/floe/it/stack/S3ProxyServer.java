/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.stack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.gaul.s3proxy.AccessGrant;
import org.gaul.s3proxy.BlobStoreLocator;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.blobstore.BlobStore;
import org.gaul.s3proxy.nio2blob.FilesystemNio2BlobStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * An S3-compatible object store: S3Proxy in this JVM, on 127.0.0.1 and a free port, keeping its
 * buckets as folders under {@code target/it-work/s3proxy-<n>/blobs} (one folder per bucket, one
 * file per object), so a failed run can be inspected. S3Proxy 4.x has its own blob stores; jclouds
 * is no longer involved.
 *
 * <p>Clients sign with AWS signature V4 (V2 is accepted too) using {@link #ACCESS_KEY} and {@link
 * #SECRET_KEY}, or the keys given to {@link #start(String, String)}, and must use path-style
 * addressing ({@code http://127.0.0.1:<port>/<bucket>/<key>}) because there is no DNS for
 * virtual-host buckets.
 *
 * <p>Besides its own keys, which open every bucket, the store lets in keys {@linkplain #grant
 * granted} for one bucket and a while, as a cloud's token service vends them: past that while, or
 * on another bucket, they are refused ({@code InvalidAccessKeyId} or {@code AccessDenied}, 403).
 * The session token that comes with them is signed with each request but not checked.
 *
 * <p>Checksums: AWS SDK 2.59 computes request checksums by default ({@code
 * requestChecksumCalculation=WHEN_SUPPORTED}), which sends {@code aws-chunked} bodies with a
 * trailing CRC. S3Proxy 4.1 decodes those and stores the plain bytes, so neither {@code
 * -Daws.requestChecksumCalculation=WHEN_REQUIRED} nor Iceberg's {@code s3.checksum-enabled} is
 * needed; {@code CatalogStackIT} checks that each object's stored size equals the size Iceberg
 * wrote.
 */
public final class S3ProxyServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(S3ProxyServer.class);

  public static final String ACCESS_KEY = "floe-access-key";
  public static final String SECRET_KEY = "floe-secret-key";
  public static final String REGION = "us-east-1";

  /**
   * The HTTP client S3FileIO should use. Both {@code urlconnection} and {@code apache} work against
   * S3Proxy, from the test classpath and from the connector's own runtime jars; {@code
   * urlconnection} needs nothing beyond the JDK.
   */
  public static final String HTTP_CLIENT_TYPE = "urlconnection";

  private final Path dir;
  private final String accessKey;
  private final String secretKey;
  private final BlobStore blobStore;
  private final Keys keys;
  private S3Proxy proxy;
  private final URI endpoint;
  private final long startupMillis;
  private boolean closed;

  private S3ProxyServer(
      Path dir,
      String accessKey,
      String secretKey,
      BlobStore blobStore,
      Keys keys,
      S3Proxy proxy,
      URI endpoint,
      long startupMillis) {
    this.dir = dir;
    this.accessKey = accessKey;
    this.secretKey = secretKey;
    this.blobStore = blobStore;
    this.keys = keys;
    this.proxy = proxy;
    this.endpoint = endpoint;
    this.startupMillis = startupMillis;
  }

  /** Starts a new, empty store in a fresh service folder. */
  public static S3ProxyServer start() {
    return start(ACCESS_KEY, SECRET_KEY);
  }

  /** Starts a new, empty store that lets in only requests signed with these keys. */
  public static S3ProxyServer start(String accessKey, String secretKey) {
    long begin = System.nanoTime();
    Path dir = StackDirs.newServiceDir("s3proxy");
    Path blobs = createDirectory(dir.resolve("blobs"));
    BlobStore blobStore = new FilesystemNio2BlobStore(blobs.toString());
    Keys keys = new Keys(accessKey, secretKey, blobStore);
    S3Proxy proxy = newProxy(keys, 0);
    try {
      proxy.start();
      awaitStarted(proxy);
    } catch (Exception e) {
      stopQuietlyAfterFailure(proxy, blobStore, e);
      throw new IllegalStateException("S3Proxy did not start (data in " + dir + ")", e);
    }
    URI endpoint = URI.create("http://" + Ports.LOOPBACK + ":" + proxy.getPort());
    long millis = (System.nanoTime() - begin) / 1_000_000;
    LOG.info("S3Proxy started at {} in {} ms, blobs in {}", endpoint, millis, blobs);
    return new S3ProxyServer(dir, accessKey, secretKey, blobStore, keys, proxy, endpoint, millis);
  }

  private static S3Proxy newProxy(Keys keys, int port) {
    S3Proxy proxy =
        S3Proxy.builder()
            .blobStore(keys.blobStore)
            .endpoint(URI.create("http://" + Ports.LOOPBACK + ":" + port))
            .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, keys.ownerKey, keys.ownerSecret)
            .ignoreUnknownHeaders(true)
            .stopTimeout(0)
            .build();
    proxy.setBlobStoreLocator(keys);
    return proxy;
  }

  /** Keys granted by {@link #grant}: what they open, and until when. */
  public record GrantedKeys(
      String accessKeyId, String secretAccessKey, String sessionToken, Instant validUntil) {
    @Override
    public String toString() {
      return "GrantedKeys[" + accessKeyId + ", valid until " + validUntil + "]";
    }
  }

  /** The keys the store lets in: the owner's for every bucket, granted ones for theirs. */
  private static final class Keys implements BlobStoreLocator {
    private record Grant(String secret, String bucket, Instant validUntil) {}

    private final String ownerKey;
    private final String ownerSecret;
    private final BlobStore blobStore;
    private final Map<String, Grant> grants = new ConcurrentHashMap<>();
    private final AtomicInteger refused = new AtomicInteger();

    Keys(String ownerKey, String ownerSecret, BlobStore blobStore) {
      this.ownerKey = ownerKey;
      this.ownerSecret = ownerSecret;
      this.blobStore = blobStore;
    }

    @Override
    public AccessGrant locateBlobStore(String identity, String container, String blob) {
      if (ownerKey.equals(identity)) {
        return new AccessGrant(ownerSecret, blobStore);
      }
      Grant grant = identity == null ? null : grants.get(identity);
      if (grant == null
          || !grant.bucket().equals(container)
          || Instant.now().isAfter(grant.validUntil())) {
        refused.incrementAndGet();
        return null;
      }
      return new AccessGrant(grant.secret(), blobStore);
    }
  }

  /**
   * New keys that open {@code bucket} only, for {@code validFor} from now; each part of them starts
   * with {@code prefix} (a test's canary, say).
   */
  public GrantedKeys grant(String bucket, Duration validFor, String prefix) {
    String id = prefix + "-" + randomHex();
    GrantedKeys granted =
        new GrantedKeys(
            id,
            prefix + "-secret-" + randomHex(),
            prefix + "-session-" + randomHex(),
            Instant.now().plus(validFor));
    keys.grants.put(id, new Keys.Grant(granted.secretAccessKey(), bucket, granted.validUntil()));
    return granted;
  }

  /** How many requests were refused for keys this store does not know, or no longer lets in. */
  public int refusedRequests() {
    return keys.refused.get();
  }

  private static final SecureRandom RANDOM = new SecureRandom();

  private static String randomHex() {
    byte[] bytes = new byte[8];
    RANDOM.nextBytes(bytes);
    return HexFormat.of().formatHex(bytes);
  }

  /**
   * Stops answering: the port is closed, so clients get connection refused, as when the object
   * store is unreachable. The blobs stay.
   */
  public synchronized void stopServing() {
    try {
      proxy.stop();
    } catch (Exception e) {
      throw new IllegalStateException("Stopping S3Proxy at " + endpoint + " failed", e);
    }
    LOG.info("S3Proxy at {} stopped serving", endpoint);
  }

  /** Serves the same blobs again on the same port after {@link #stopServing}. */
  public synchronized void resumeServing() {
    proxy = newProxy(keys, endpoint.getPort());
    try {
      proxy.start();
      awaitStarted(proxy);
    } catch (Exception e) {
      throw new IllegalStateException("Restarting S3Proxy on " + endpoint + " failed", e);
    }
    LOG.info("S3Proxy at {} serves again", endpoint);
  }

  private static void awaitStarted(S3Proxy proxy) throws InterruptedException {
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (!"STARTED".equals(proxy.getState())) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("S3Proxy is " + proxy.getState() + " after 30 s");
      }
      Thread.sleep(10);
    }
  }

  private static void stopQuietlyAfterFailure(S3Proxy proxy, BlobStore blobStore, Exception cause) {
    try {
      proxy.stop();
    } catch (Exception e) {
      cause.addSuppressed(e);
    }
    blobStore.close();
  }

  private static Path createDirectory(Path path) {
    try {
      return Files.createDirectories(path);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot create " + path, e);
    }
  }

  /** {@code http://127.0.0.1:<port>}. */
  public URI endpoint() {
    return endpoint;
  }

  public String accessKey() {
    return accessKey;
  }

  public String secretKey() {
    return secretKey;
  }

  /** The service folder; buckets are folders under {@code blobs/}. */
  public Path dir() {
    return dir;
  }

  public long startupMillis() {
    return startupMillis;
  }

  /**
   * Creates a bucket (idempotent). The name must follow S3's rules (3 to 63 lower-case letters,
   * digits, dots and dashes): S3Proxy would create a folder for any name but then answer {@code
   * NoSuchBucket} for it.
   */
  public void createBucket(String bucket) {
    if (!bucket.matches("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]")) {
      throw new IllegalArgumentException("Not a valid S3 bucket name: '" + bucket + "'");
    }
    if (!blobStore.containerExists(bucket)) {
      blobStore.createContainer(bucket);
      LOG.info("Created bucket {} on {}", bucket, endpoint);
    }
  }

  /**
   * Properties for Iceberg's {@code S3FileIO} on this store, ready to merge into a catalog
   * configuration (they include {@code io-impl}, so any catalog picks S3FileIO):
   *
   * <ul>
   *   <li>{@code io-impl=org.apache.iceberg.aws.s3.S3FileIO}
   *   <li>{@code s3.endpoint=http://127.0.0.1:<port>}, {@code s3.path-style-access=true}
   *   <li>{@code s3.access-key-id}, {@code s3.secret-access-key}: static credentials, so the SDK
   *       never looks for instance or profile credentials
   *   <li>{@code client.region=us-east-1}: any region works, but the SDK insists on one
   *   <li>{@code http-client.type}: see {@link #HTTP_CLIENT_TYPE}
   * </ul>
   */
  public Map<String, String> s3FileIoProperties() {
    Map<String, String> props = new LinkedHashMap<>();
    props.put("io-impl", "org.apache.iceberg.aws.s3.S3FileIO");
    props.put("s3.endpoint", endpoint.toString());
    props.put("s3.path-style-access", "true");
    props.put("s3.access-key-id", accessKey);
    props.put("s3.secret-access-key", secretKey);
    props.put("client.region", REGION);
    props.put("http-client.type", HTTP_CLIENT_TYPE);
    return props;
  }

  /**
   * The objects under {@code prefix} in {@code bucket} with their stored sizes, listed over the S3
   * protocol (not from the folder), sorted by key.
   */
  public Map<String, Long> listObjects(String bucket, String prefix) {
    Map<String, Long> objects = new TreeMap<>();
    try (S3Client client = newClient()) {
      ListObjectsV2Request request =
          ListObjectsV2Request.builder().bucket(bucket).prefix(prefix).build();
      for (S3Object object : client.listObjectsV2Paginator(request).contents()) {
        objects.put(object.key(), object.size());
      }
    }
    return objects;
  }

  /** A new S3 client for this store; the caller closes it. */
  public S3Client newClient() {
    return newClient(AwsBasicCredentials.create(accessKey, secretKey));
  }

  /** A new S3 client for this store signing with {@code keys}; the caller closes it. */
  public S3Client newClient(GrantedKeys keys) {
    return newClient(
        AwsSessionCredentials.create(
            keys.accessKeyId(), keys.secretAccessKey(), keys.sessionToken()));
  }

  private S3Client newClient(AwsCredentials credentials) {
    return S3Client.builder()
        .endpointOverride(endpoint)
        .forcePathStyle(true)
        .region(Region.of(REGION))
        .credentialsProvider(StaticCredentialsProvider.create(credentials))
        .httpClientBuilder(UrlConnectionHttpClient.builder())
        .build();
  }

  /** Stops the proxy; the blobs stay on disk for inspection. Safe to call more than once. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      proxy.stop();
      LOG.info("S3Proxy at {} stopped", endpoint);
    } catch (Exception e) {
      throw new IllegalStateException("Cannot stop S3Proxy at " + endpoint, e);
    } finally {
      blobStore.close();
    }
  }
}
