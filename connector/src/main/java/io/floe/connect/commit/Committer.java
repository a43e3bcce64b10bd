/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.commit;

import io.floe.connect.config.FloeSinkConfig;
import io.floe.connect.control.ControlLogin;
import io.floe.connect.control.ControlTopic;
import io.floe.connect.control.KafkaClients;
import io.floe.connect.maintain.OrphanFiles;
import io.floe.connect.metrics.CoordinatorMetrics;
import io.floe.connect.metrics.MetricsRegistry;
import io.floe.connect.metrics.TaskMetrics;
import io.floe.connect.write.SinkWriter;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.util.ThreadPools;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTaskContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A task's part in the commit protocol: its {@link Worker} always, and the connector's {@link
 * Coordinator} while the task owns the election partition (partition 0 of the first source topic in
 * sorted order). Leadership follows the task's own assignment, read on every {@code open}/{@code
 * close}, never a snapshot of the group; safety rests on fencing, not on the election.
 */
public final class Committer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Committer.class);
  private static final long ADMIN_TIMEOUT_S = 30;

  private final FloeSinkConfig config;
  private final ControlSettings settings;
  private final Catalog catalog;
  private final SinkTaskContext context;
  private final KafkaClients clients;
  private final Clock clock;
  private final MetricsRegistry metrics;
  private Admin admin;
  private ControlTopic topic;
  private String groupId;
  private TopicPartition electionPartition;
  private Worker worker;
  private Coordinator coordinator;

  /** Partitions this committer paused while the worker pauses after a failed write. */
  private final Set<TopicPartition> paused = new HashSet<>();

  public Committer(
      FloeSinkConfig config,
      Catalog catalog,
      SinkTaskContext context,
      KafkaClients clients,
      Clock clock,
      MetricsRegistry metrics) {
    this.config = config;
    this.settings = ControlSettings.of(config);
    this.catalog = catalog;
    this.context = context;
    this.clients = clients;
    this.clock = clock;
    this.metrics = metrics;
  }

  /** Task thread, in {@code start}: finds or creates the control topic and starts the worker. */
  public void start(SinkWriter writer, Runnable awaitReported, TaskMetrics taskMetrics) {
    String bootstrap = config.kafkaBootstrapServers();
    LOG.info(
        "Task {} connects its control clients to {} (from {})",
        settings.taskId(),
        bootstrap,
        config.kafkaBootstrapSource());
    Supplier<ConsumerGroupMetadata> group = ConnectConsumerAccess.groupMetadata(context);
    groupId = group.get().groupId();
    admin = clients.admin("floe-admin-" + settings.taskId());
    try {
      topic = ControlTopic.ensure(admin, config.controlTopic());
    } catch (AuthenticationException e) {
      throw ControlLogin.explain(e, clients.endpoint());
    }
    electionPartition = electionPartition();
    worker = new Worker(settings, writer, awaitReported, clients, topic, group, clock, taskMetrics);
    worker.start();
    LOG.info(
        "Task {} of group {} uses control topic {} (id {}); the coordinator runs in the task that"
            + " owns {}",
        settings.taskId(),
        groupId,
        topic.name(),
        topic.id(),
        electionPartition);
  }

  public void open(Collection<TopicPartition> partitions) {
    worker.open(partitions);
    if (partitions.contains(electionPartition) && coordinator == null) {
      coordinator =
          new Coordinator(
              coordinatorSettings(),
              groupId,
              catalog,
              clients,
              topic,
              this::sourcePartitions,
              clock,
              new CoordinatorMetrics(metrics, clock),
              ThreadPools.getWorkerPool());
      coordinator.start();
      LOG.info("Task {} owns {} and runs the coordinator", settings.taskId(), electionPartition);
    }
  }

  /**
   * The coordinator's settings: with orphan-file removal on, its minimum age is raised to the
   * control topic's retention plus the commit timeout, so that no control event a restarted
   * coordinator could still replay names a file it deletes.
   */
  private ControlSettings coordinatorSettings() {
    OrphanFiles.Settings orphans = settings.maintenance().orphans();
    if (orphans == null) {
      return settings;
    }
    OptionalLong retention = ControlTopic.retentionMs(admin, topic.name());
    long timeout = settings.commitTimeout().toMillis();
    if (retention.isEmpty() || retention.getAsLong() < 0) {
      LOG.warn(
          "Cannot bound the age of control events: the retention.ms of control topic {} is {};"
              + " orphan files are those older than {} ms, as configured. Keep"
              + " iceberg.maintenance.orphan-files.min-age-ms above the topic's retention plus"
              + " the commit timeout ({} ms)",
          topic.name(),
          retention.isEmpty()
              ? "unreadable (the DescribeConfigs permission on it is missing)"
              : "unbounded",
          orphans.minAgeMs(),
          timeout);
      return settings;
    }
    long safe = retention.getAsLong() + timeout;
    if (safe > orphans.minAgeMs()) {
      LOG.info(
          "Orphan files are those older than {} ms: the retention of control topic {} ({} ms)"
              + " plus the commit timeout ({} ms), above the configured {} ms",
          safe,
          topic.name(),
          retention.getAsLong(),
          timeout,
          orphans.minAgeMs());
      return settings.withMaintenance(settings.maintenance().withOrphans(orphans.atLeast(safe)));
    }
    return settings;
  }

  public void close(Collection<TopicPartition> partitions) {
    paused.removeAll(partitions);
    worker.close(partitions);
    if (partitions.contains(electionPartition)) {
      stopCoordinator();
    }
  }

  public void put(Collection<SinkRecord> records) {
    if (coordinator != null) {
      coordinator.checkHealthy();
    }
    Map<TopicPartition, Long> rewind = worker.put(records);
    if (!rewind.isEmpty()) {
      context.offset(rewind);
    }
    pauseWhileTheWorkerDoes();
  }

  /**
   * After a failed write the worker reads nothing for a while: its partitions are paused until
   * then, and Connect polls again when the pause ends (it calls {@code put} after every poll, with
   * nothing while paused). The task thread never sleeps.
   */
  private void pauseWhileTheWorkerDoes() {
    long waitMs = worker.resumeAtMs() - clock.millis();
    Set<TopicPartition> assignment = context.assignment();
    if (waitMs > 0) {
      Set<TopicPartition> pausing = new HashSet<>(assignment);
      pausing.removeAll(paused);
      if (!pausing.isEmpty()) {
        context.pause(pausing.toArray(TopicPartition[]::new));
        paused.addAll(pausing);
      }
      context.timeout(waitMs);
    } else if (!paused.isEmpty()) {
      paused.retainAll(assignment);
      if (!paused.isEmpty()) {
        context.resume(paused.toArray(TopicPartition[]::new));
      }
      paused.clear();
    }
  }

  /** Whether this task runs the connector's coordinator now. */
  boolean runsCoordinator() {
    return coordinator != null;
  }

  /** Throws if a control thread failed. */
  public void checkHealthy() {
    worker.checkHealthy();
    if (coordinator != null) {
      coordinator.checkHealthy();
    }
  }

  private void stopCoordinator() {
    if (coordinator != null) {
      coordinator.close();
      coordinator = null;
    }
  }

  private TopicPartition electionPartition() {
    List<String> topics = config.sourceTopics();
    if (topics.isEmpty()) {
      topics = matchingTopics().stream().toList();
    }
    if (topics.isEmpty()) {
      throw new ConnectException(
          "Connector "
              + settings.connectorName()
              + " has no source topic yet (topics.regex "
              + config.sourceTopicsRegex().orElse("unset")
              + " matches none): the coordinator's election needs one");
    }
    return new TopicPartition(topics.stream().sorted().findFirst().get(), 0);
  }

  private Set<String> matchingTopics() {
    Optional<String> regex = config.sourceTopicsRegex();
    if (regex.isEmpty()) {
      return Set.of();
    }
    Pattern pattern = Pattern.compile(regex.get());
    Set<String> names = await(admin.listTopics().names());
    Set<String> matching = new TreeSet<>();
    for (String name : names) {
      if (pattern.matcher(name).matches()) {
        matching.add(name);
      }
    }
    return matching;
  }

  /** Every partition of the source topics, as Kafka has them now. */
  Set<TopicPartition> sourcePartitions() {
    Set<String> topics = new HashSet<>(config.sourceTopics());
    topics.addAll(matchingTopics());
    Map<String, TopicDescription> descriptions =
        await(admin.describeTopics(topics).allTopicNames());
    Set<TopicPartition> partitions =
        new TreeSet<>(
            Comparator.comparing(TopicPartition::topic).thenComparing(TopicPartition::partition));
    descriptions.forEach(
        (name, description) ->
            description
                .partitions()
                .forEach(p -> partitions.add(new TopicPartition(name, p.partition()))));
    return partitions;
  }

  private static <T> T await(org.apache.kafka.common.KafkaFuture<T> future) {
    try {
      return future.get(ADMIN_TIMEOUT_S, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      throw new ConnectException("Kafka admin request failed: " + e.getCause(), e.getCause());
    } catch (TimeoutException e) {
      throw new ConnectException(
          "Kafka admin request timed out after " + ADMIN_TIMEOUT_S + " s", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ConnectException("Interrupted", e);
    }
  }

  @Override
  public void close() {
    stopCoordinator();
    if (worker != null) {
      worker.close();
    }
    if (admin != null) {
      admin.close(Duration.ofSeconds(5));
    }
  }
}
