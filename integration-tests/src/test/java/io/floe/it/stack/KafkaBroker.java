/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.stack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A single-node KRaft Kafka broker (combined broker and controller) in its own JVM, listening on
 * 127.0.0.1 only.
 */
public final class KafkaBroker implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(KafkaBroker.class);
  private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

  private final Path dir;
  private final int port;
  private final JavaProcess process;
  private final Duration startup;
  private final Map<String, Object> adminLogin;

  private KafkaBroker(
      Path dir, int port, JavaProcess process, Duration startup, Map<String, Object> adminLogin) {
    this.dir = dir;
    this.port = port;
    this.process = process;
    this.startup = startup;
    this.adminLogin = adminLogin;
  }

  /** Formats fresh storage and starts a broker of the default Kafka runtime. */
  public static KafkaBroker start() {
    return start(KafkaRuntime.DEFAULT);
  }

  public static KafkaBroker start(KafkaRuntime runtime) {
    return start(runtime, null);
  }

  /**
   * Starts a broker whose only client listener is {@code SASL_PLAINTEXT} ({@link KafkaSecurity}) or
   * {@code SSL} with client certificates ({@link KafkaTls}), with ACLs on; {@link #admin()} and
   * {@link #stringProducer()} log in as its super user.
   */
  public static KafkaBroker startSecured(BrokerSecurity security) {
    return start(KafkaRuntime.DEFAULT, security);
  }

  private static KafkaBroker start(KafkaRuntime runtime, BrokerSecurity security) {
    Instant begin = Instant.now();
    Path dir = StackDirs.newServiceDir("kafka");
    int port = Ports.free();
    int controllerPort = Ports.free();
    Path config = writeConfig(dir, port, controllerPort, security);
    Map<String, Object> adminLogin = security == null ? Map.of() : security.adminLogin();
    List<String> format =
        new ArrayList<>(List.of("format", "-t", randomClusterId(), "-c", config.toString()));
    if (security != null) {
      format.addAll(security.formatArguments());
    }
    List<String> jvm = new ArrayList<>(List.of("-Xms128m", "-Xmx512m"));
    jvm.addAll(Logging.jvmOptions(runtime, dir));

    int formatted =
        JavaProcess.run(
            "kafka-storage-format", runtime.libDir(), jvm, "kafka.tools.StorageTool", format, dir);
    if (formatted != 0) {
      throw new IllegalStateException(
          "Formatting Kafka storage failed (exit " + formatted + "); see " + dir);
    }
    JavaProcess process =
        JavaProcess.start(
            "kafka", runtime.libDir(), jvm, "kafka.Kafka", List.of(config.toString()), dir);
    try {
      awaitReady(process, port, adminLogin);
      Duration startup = Duration.between(begin, Instant.now());
      LOG.info(
          "Kafka {} broker ready on 127.0.0.1:{} in {} ms",
          runtime.line(),
          port,
          startup.toMillis());
      return new KafkaBroker(dir, port, process, startup, adminLogin);
    } catch (RuntimeException e) {
      process.close();
      throw e;
    }
  }

  private static String randomClusterId() {
    // A Kafka cluster id is a base64url-encoded 16-byte UUID, 22 characters. One that starts with
    // '-' reads as an option to kafka-storage (as Kafka's own Uuid.randomUuid knows): draw again.
    while (true) {
      UUID uuid = UUID.randomUUID();
      ByteBuffer bytes = ByteBuffer.allocate(16);
      bytes.putLong(uuid.getMostSignificantBits()).putLong(uuid.getLeastSignificantBits());
      String id = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes.array());
      if (!id.startsWith("-")) {
        return id;
      }
    }
  }

  private static Path writeConfig(Path dir, int port, int controllerPort, BrokerSecurity security) {
    Properties props = new Properties();
    props.put("process.roles", "broker,controller");
    props.put("node.id", "1");
    props.put("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
    props.put(
        "listeners", "PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort);
    props.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + port);
    props.put("controller.listener.names", "CONTROLLER");
    props.put("inter.broker.listener.name", "PLAINTEXT");
    props.put("listener.security.protocol.map", "CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT");
    props.put("log.dirs", dir.resolve("data").toString());
    props.put("num.partitions", "1");
    props.put("offsets.topic.replication.factor", "1");
    props.put("offsets.topic.num.partitions", "5");
    props.put("transaction.state.log.replication.factor", "1");
    props.put("transaction.state.log.min.isr", "1");
    props.put("transaction.state.log.num.partitions", "5");
    props.put("share.coordinator.state.topic.replication.factor", "1");
    props.put("share.coordinator.state.topic.min.isr", "1");
    props.put("group.initial.rebalance.delay.ms", "0");
    props.put("auto.create.topics.enable", "false");
    if (security != null) {
      props.putAll(security.serverProperties(port, controllerPort));
    }
    Path file = dir.resolve("server.properties");
    try (var out = Files.newBufferedWriter(file)) {
      props.store(out, "single-node KRaft broker for tests");
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write " + file, e);
    }
    return file;
  }

  private static void awaitReady(JavaProcess process, int port, Map<String, Object> login) {
    Instant deadline = Instant.now().plus(START_TIMEOUT);
    while (true) {
      process.checkAlive();
      if (Ports.isOpen(port)) {
        try (Admin admin = admin("127.0.0.1:" + port, login)) {
          admin.describeCluster().nodes().get(2, TimeUnit.SECONDS);
          return;
        } catch (ExecutionException | TimeoutException e) {
          // not serving yet
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException("Interrupted waiting for Kafka", e);
        }
      }
      if (Instant.now().isAfter(deadline)) {
        throw new IllegalStateException(
            "Kafka did not start in " + START_TIMEOUT + "; see " + process.log());
      }
      Ports.sleep(Duration.ofMillis(200));
    }
  }

  public String bootstrapServers() {
    return "127.0.0.1:" + port;
  }

  public Duration startupTime() {
    return startup;
  }

  public Path dir() {
    return dir;
  }

  /** An admin client on this broker; the caller closes it. */
  /** A producer of string keys and values that waits for every replica ({@code acks=all}). */
  public KafkaProducer<String, String> stringProducer() {
    Map<String, Object> props = new java.util.HashMap<>(adminLogin);
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
    props.put(ProducerConfig.ACKS_CONFIG, "all");
    return new KafkaProducer<>(props, new StringSerializer(), new StringSerializer());
  }

  public Admin admin() {
    return admin(bootstrapServers(), adminLogin);
  }

  /**
   * The client settings that log in as the super user of a {@link #startSecured} broker; empty for
   * a plain one.
   */
  public Map<String, Object> adminLogin() {
    return adminLogin;
  }

  private static Admin admin(String bootstrapServers, Map<String, Object> login) {
    Map<String, Object> props = new java.util.HashMap<>(login);
    props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5000);
    props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10000);
    return Admin.create(props);
  }

  /** Creates a topic with replication factor 1. */
  public void createTopic(String name, int partitions) {
    createTopic(name, partitions, Map.of());
  }

  /**
   * Creates a topic with topic-level settings, e.g. {@code max.message.bytes}, and waits until
   * every partition's leader answers: a producer sending at once to a partition whose leader is not
   * ready yet gets errors that can make an idempotent producer drop records.
   */
  public void createTopic(String name, int partitions, Map<String, String> configs) {
    try (Admin admin = admin()) {
      admin
          .createTopics(List.of(new NewTopic(name, partitions, (short) 1).configs(configs)))
          .all()
          .get(30, TimeUnit.SECONDS);
      Map<org.apache.kafka.common.TopicPartition, org.apache.kafka.clients.admin.OffsetSpec>
          latest = new java.util.HashMap<>();
      for (int partition = 0; partition < partitions; partition++) {
        latest.put(
            new org.apache.kafka.common.TopicPartition(name, partition),
            org.apache.kafka.clients.admin.OffsetSpec.latest());
      }
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (true) {
        try {
          admin.listOffsets(latest).all().get(30, TimeUnit.SECONDS);
          break;
        } catch (ExecutionException notYet) {
          if (System.nanoTime() > deadline) {
            throw notYet;
          }
          Thread.sleep(100);
        }
      }
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("Cannot create topic " + name, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted creating topic " + name, e);
    }
  }

  @Override
  public void close() {
    process.close();
  }
}
