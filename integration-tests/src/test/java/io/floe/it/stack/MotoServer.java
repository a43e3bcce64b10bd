/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.stack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * moto in server mode ({@code moto_server}, Python), bound to 127.0.0.1: an emulator of AWS Glue
 * and S3 on one port. Its Glue accepts any credentials and keeps tables in memory; it serves
 * GlueCatalog's calls, but ignores the {@code VersionId} an {@code UpdateTable} is conditioned on,
 * so it does not refuse a commit built on a table version that moved (README, "Catalogs and
 * storage"). A build machine without {@code moto_server} on its {@code PATH} fails the test that
 * needs it, saying what to install.
 */
public final class MotoServer implements AutoCloseable {
  public static final String ACCESS_KEY = "floe-moto-access";
  public static final String SECRET_KEY = "floe-moto-secret";
  public static final String REGION = "us-east-1";
  private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

  private final Process process;
  private final Path log;
  private final int port;

  private MotoServer(Process process, Path log, int port) {
    this.process = process;
    this.log = log;
    this.port = port;
  }

  /**
   * The JVM options under which the AWS SDK's default credentials chain finds this server's keys,
   * as GlueCatalog looks them up (it takes no keys of its own from the catalog properties).
   */
  public static List<String> credentialsJvmOptions() {
    return List.of("-Daws.accessKeyId=" + ACCESS_KEY, "-Daws.secretAccessKey=" + SECRET_KEY);
  }

  /**
   * This server's keys for a catalog of the test JVM ({@code client.credentials-provider}), which
   * leaves the JVM's system properties alone.
   */
  public static final class Credentials implements AwsCredentialsProvider {
    public static Credentials create() {
      return new Credentials();
    }

    @Override
    public AwsCredentials resolveCredentials() {
      return AwsBasicCredentials.create(ACCESS_KEY, SECRET_KEY);
    }
  }

  /** {@link #glueCatalogProperties} for a reader in the test JVM, with this server's keys. */
  public Map<String, String> readerProperties(String bucket) {
    Map<String, String> props = glueCatalogProperties(bucket);
    props.remove("type");
    props.put("catalog-impl", "org.apache.iceberg.aws.glue.GlueCatalog");
    props.put("client.credentials-provider", Credentials.class.getName());
    props.put("s3.access-key-id", ACCESS_KEY);
    props.put("s3.secret-access-key", SECRET_KEY);
    return props;
  }

  public static MotoServer start() {
    Path executable =
        Executables.onPath("moto_server")
            .orElseThrow(
                () ->
                    new IllegalStateException(
                        "moto_server is not on the PATH: the Glue tests need moto in server mode"
                            + " (Python: pip install 'moto[server]'; .ci/run checks for it)"));
    Path dir = StackDirs.newServiceDir("moto");
    Path log = dir.resolve("moto.log");
    int port = Ports.free();
    try {
      Process process =
          new ProcessBuilder(
                  executable.toString(), "-H", Ports.LOOPBACK, "-p", Integer.toString(port))
              .directory(dir.toFile())
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .start();
      MotoServer moto = new MotoServer(process, log, port);
      try {
        Ports.awaitOpen(port, START_TIMEOUT, "moto_server (log " + log + ")");
      } catch (RuntimeException e) {
        moto.close();
        throw e;
      }
      return moto;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot start " + executable, e);
    }
  }

  public URI endpoint() {
    return URI.create("http://" + Ports.LOOPBACK + ":" + port);
  }

  public Path log() {
    return log;
  }

  /**
   * The {@code iceberg.catalog.*} properties (prefix removed) of a Glue catalog on this server
   * whose warehouse is {@code s3://<bucket>/warehouse} on its S3, through S3FileIO.
   */
  public Map<String, String> glueCatalogProperties(String bucket) {
    Map<String, String> props = new HashMap<>();
    props.put("type", "glue");
    props.put("warehouse", "s3://" + bucket + "/warehouse");
    props.put("io-impl", "org.apache.iceberg.aws.s3.S3FileIO");
    props.put("glue.endpoint", endpoint().toString());
    props.put("s3.endpoint", endpoint().toString());
    props.put("s3.path-style-access", "true");
    props.put("client.region", REGION);
    props.put("http-client.type", "urlconnection");
    return props;
  }

  public void createBucket(String bucket) {
    try (S3Client s3 =
        S3Client.builder()
            .endpointOverride(endpoint())
            .forcePathStyle(true)
            .region(Region.of(REGION))
            .credentialsProvider(
                StaticCredentialsProvider.create(
                    AwsBasicCredentials.create(ACCESS_KEY, SECRET_KEY)))
            .httpClient(UrlConnectionHttpClient.create())
            .build()) {
      s3.createBucket(request -> request.bucket(bucket));
    }
  }

  @Override
  public void close() {
    Executables.stop(process);
  }
}
