/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.stack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Kafka Connect worker in distributed mode, in its own JVM, whose classpath holds only the jars
 * of a stock Kafka distribution and whose {@code plugin.path} is the unpacked Floe zip: plugin
 * isolation exactly as users get it. Tests drive it only through its REST API ({@link #rest()}).
 */
public final class ConnectWorker implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ConnectWorker.class);
  private static final Duration START_TIMEOUT = Duration.ofSeconds(90);

  private final KafkaRuntime runtime;
  private final Path dir;
  private final int restPort;
  private final JavaProcess process;
  private final ConnectRest rest;
  private final Duration startup;

  private ConnectWorker(
      KafkaRuntime runtime, Path dir, int restPort, JavaProcess process, Duration startup) {
    this.runtime = runtime;
    this.dir = dir;
    this.restPort = restPort;
    this.process = process;
    this.rest = new ConnectRest(restUrl(restPort));
    this.startup = startup;
  }

  /**
   * Options of a worker; the defaults give one worker of the default runtime in group "connect".
   */
  public static final class Options {
    private KafkaRuntime runtime = KafkaRuntime.DEFAULT;
    private String groupId = "connect";
    private String pluginDiscovery = "service_load";
    private String maxHeap = "768m";
    private final List<String> jvmOptions = new ArrayList<>();
    private final Map<String, String> extra = new LinkedHashMap<>();

    public Options runtime(KafkaRuntime value) {
      this.runtime = value;
      return this;
    }

    /** Workers with the same group id form one Connect cluster. */
    public Options groupId(String value) {
      this.groupId = value;
      return this;
    }

    /** {@code plugin.discovery}: only_scan, hybrid_warn, hybrid_fail or service_load. */
    public Options pluginDiscovery(String value) {
      this.pluginDiscovery = value;
      return this;
    }

    /** The worker JVM's {@code -Xmx}, e.g. {@code 512m}; 768m unless set. */
    public Options maxHeap(String value) {
      this.maxHeap = value;
      return this;
    }

    public Options workerProperty(String key, String value) {
      extra.put(key, value);
      return this;
    }

    /**
     * Kafka's {@code FileConfigProvider} as {@code file}: connector configs may use ${file:...}.
     */
    public Options fileConfigProvider() {
      extra.put("config.providers", "file");
      extra.put(
          "config.providers.file.class",
          "org.apache.kafka.common.config.provider.FileConfigProvider");
      return this;
    }

    /** Several worker properties, e.g. a login from {@link KafkaSecurity#workerProperties}. */
    public Options workerProperties(Map<String, String> values) {
      extra.putAll(values);
      return this;
    }

    /** Options for the worker's JVM, after the heap and logging ones. */
    public Options jvmOptions(List<String> options) {
      jvmOptions.addAll(options);
      return this;
    }
  }

  public static ConnectWorker start(KafkaBroker broker, Path pluginPath, Options options) {
    Instant begin = Instant.now();
    Path dir = StackDirs.newServiceDir("connect-" + options.runtime.line());
    int restPort = Ports.free();
    Path config = writeConfig(dir, broker, pluginPath, restPort, options);
    List<String> jvm = new ArrayList<>(List.of("-Xms128m", "-Xmx" + options.maxHeap));
    jvm.addAll(Logging.jvmOptions(options.runtime, dir));
    jvm.addAll(options.jvmOptions);
    JavaProcess process =
        JavaProcess.start(
            "connect",
            options.runtime.libDir(),
            jvm,
            "org.apache.kafka.connect.cli.ConnectDistributed",
            List.of(config.toString()),
            dir);
    try {
      awaitReady(process, new ConnectRest(restUrl(restPort)));
      Duration startup = Duration.between(begin, Instant.now());
      LOG.info(
          "Connect {} worker ready on {} in {} ms",
          options.runtime.line(),
          restUrl(restPort),
          startup.toMillis());
      return new ConnectWorker(options.runtime, dir, restPort, process, startup);
    } catch (RuntimeException e) {
      process.close();
      throw e;
    }
  }

  private static Path writeConfig(
      Path dir, KafkaBroker broker, Path pluginPath, int restPort, Options options) {
    Properties props = new Properties();
    props.put("bootstrap.servers", broker.bootstrapServers());
    props.put("group.id", options.groupId);
    props.put("key.converter", "org.apache.kafka.connect.json.JsonConverter");
    props.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
    props.put("key.converter.schemas.enable", "false");
    props.put("value.converter.schemas.enable", "false");
    props.put("offset.storage.topic", options.groupId + "-offsets");
    props.put("config.storage.topic", options.groupId + "-configs");
    props.put("status.storage.topic", options.groupId + "-status");
    props.put("offset.storage.replication.factor", "1");
    props.put("offset.storage.partitions", "5");
    props.put("config.storage.replication.factor", "1");
    props.put("status.storage.replication.factor", "1");
    props.put("status.storage.partitions", "1");
    props.put("listeners", "http://127.0.0.1:" + restPort);
    props.put("rest.advertised.host.name", "127.0.0.1");
    props.put("rest.advertised.port", String.valueOf(restPort));
    props.put("plugin.path", pluginPath.toAbsolutePath().toString());
    props.put("plugin.discovery", options.pluginDiscovery);
    props.put("scheduled.rebalance.max.delay.ms", "5000");
    props.put("task.shutdown.graceful.timeout.ms", "10000");
    props.put("offset.flush.interval.ms", "5000");
    props.putAll(options.extra);
    Path file = dir.resolve("connect-distributed.properties");
    try (var out = Files.newBufferedWriter(file)) {
      props.store(out, "Connect worker for tests");
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write " + file, e);
    }
    return file;
  }

  private static String restUrl(int port) {
    return "http://127.0.0.1:" + port;
  }

  private static void awaitReady(JavaProcess process, ConnectRest rest) {
    Instant deadline = Instant.now().plus(START_TIMEOUT);
    while (!rest.isServing()) {
      process.checkAlive();
      if (Instant.now().isAfter(deadline)) {
        throw new IllegalStateException(
            "Connect worker did not serve REST in " + START_TIMEOUT + "; see " + process.log());
      }
      Ports.sleep(Duration.ofMillis(250));
    }
  }

  public ConnectRest rest() {
    return rest;
  }

  public KafkaRuntime runtime() {
    return runtime;
  }

  public Path dir() {
    return dir;
  }

  public Path log() {
    return process.log();
  }

  /** The worker's log, to wait for what it logs. */
  public LogFile logFile() {
    return new LogFile(process.log());
  }

  /** The worker JVM's process id. */
  public long pid() {
    return process.pid();
  }

  public int restPort() {
    return restPort;
  }

  public Duration startupTime() {
    return startup;
  }

  /** Freezes the worker JVM ({@code kill -STOP}): it keeps its state but stops answering. */
  public void freeze() {
    signal("STOP");
  }

  /** Lets a frozen worker JVM go on ({@code kill -CONT}). */
  public void thaw() {
    signal("CONT");
  }

  private void signal(String signal) {
    try {
      int exit =
          new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid()))
              .inheritIO()
              .start()
              .waitFor();
      if (exit != 0) {
        throw new IllegalStateException("kill -" + signal + " exited with " + exit);
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** {@code kill -9} the worker JVM. */
  public void kill() {
    process.kill();
  }

  @Override
  public void close() {
    process.close();
  }
}
