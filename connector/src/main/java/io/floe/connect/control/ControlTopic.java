/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.control;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The control topic: found, or created when missing with one partition, replication up to 3, and a
 * retention long enough for a coordinator that was down a while to replay what it has not
 * committed. A topic of several partitions (one created beforehand, such as the Apache Iceberg
 * sink's {@code control-iceberg}) is refused: every event of a cycle must be read in the order it
 * was written, and a table's mark records one position in the topic.
 *
 * @param name the topic
 * @param id its topic id, which changes when the topic is deleted and recreated
 * @param partitions its partitions
 */
public record ControlTopic(String name, Uuid id, List<TopicPartition> partitions) {
  private static final Logger LOG = LoggerFactory.getLogger(ControlTopic.class);

  /** Retention of a created control topic: 7 days. */
  public static final long RETENTION_MS = Duration.ofDays(7).toMillis();

  private static final long TIMEOUT_S = 30;

  public ControlTopic {
    partitions = List.copyOf(partitions);
  }

  /**
   * Describes the topic, creating it first if it is missing.
   *
   * @throws ConnectException when the topic has more than one partition
   */
  public static ControlTopic ensure(Admin admin, String name) {
    try {
      return describe(admin, name);
    } catch (UnknownTopicOrPartitionException missing) {
      create(admin, name);
      return describeOnceKnown(admin, name);
    }
  }

  /**
   * Describes a topic that was just created, here or by another task: the broker answering may not
   * know it yet, so an unknown topic is asked about again for a while.
   */
  private static ControlTopic describeOnceKnown(Admin admin, String name) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_S);
    while (true) {
      try {
        return describe(admin, name);
      } catch (UnknownTopicOrPartitionException e) {
        if (System.nanoTime() > deadline) {
          throw new ConnectException(
              "Control topic "
                  + name
                  + " was created but is still unknown after "
                  + TIMEOUT_S
                  + " s",
              e);
        }
        try {
          Thread.sleep(100);
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          throw new ConnectException("Interrupted while waiting for " + name, interrupted);
        }
      }
    }
  }

  private static ControlTopic describe(Admin admin, String name) {
    TopicDescription description =
        await(admin.describeTopics(Set.of(name)).allTopicNames(), "describe", name).get(name);
    List<TopicPartition> partitions =
        description.partitions().stream()
            .map(p -> new TopicPartition(name, p.partition()))
            .sorted((a, b) -> Integer.compare(a.partition(), b.partition()))
            .toList();
    if (partitions.size() != 1) {
      throw new ConnectException(notOnePartition(name, partitions.size()));
    }
    return new ControlTopic(name, description.topicId(), partitions);
  }

  /**
   * Why a control topic of {@code count} partitions is refused, and what to do. A restarted
   * coordinator resumes from its own position per partition, and upsert hand-overs are ordered by
   * partition first, so with several partitions it could commit events twice or let an older image
   * of a row supersede a newer one.
   */
  private static String notOnePartition(String name, int count) {
    return "Control topic "
        + name
        + " has "
        + count
        + " partitions, but Floe needs a control topic of exactly one: the control events of a"
        + " commit cycle must be read in the order they were written, and the mark the"
        + " coordinator leaves in each table records one position in the topic; with more"
        + " partitions a restarted coordinator could commit events twice. Set"
        + " iceberg.control.topic to a topic of 1 partition (a missing one is created so), or,"
        + " once no connector uses it, delete it and create "
        + name
        + " again with 1 partition";
  }

  /**
   * The topic's {@code retention.ms} as the broker has it, if it can be read (it needs the
   * DescribeConfigs permission on the topic, which the connector does not otherwise need); -1 means
   * unbounded.
   */
  public static OptionalLong retentionMs(Admin admin, String name) {
    ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, name);
    try {
      Config config =
          admin
              .describeConfigs(List.of(resource))
              .all()
              .get(TIMEOUT_S, TimeUnit.SECONDS)
              .get(resource);
      ConfigEntry retention = config == null ? null : config.get("retention.ms");
      return retention == null || retention.value() == null
          ? OptionalLong.empty()
          : OptionalLong.of(Long.parseLong(retention.value()));
    } catch (ExecutionException | TimeoutException | NumberFormatException e) {
      LOG.debug("Cannot read retention.ms of control topic {}: {}", name, e.toString());
      return OptionalLong.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return OptionalLong.empty();
    }
  }

  private static void create(Admin admin, String name) {
    int brokers = await(admin.describeCluster().nodes(), "count the brokers for", name).size();
    short replication = (short) Math.max(1, Math.min(3, brokers));
    NewTopic topic =
        new NewTopic(name, 1, replication)
            .configs(
                Map.of(
                    "cleanup.policy", "delete",
                    "retention.ms", Long.toString(RETENTION_MS),
                    "min.insync.replicas", Integer.toString(Math.min(2, replication))));
    try {
      await(admin.createTopics(List.of(topic)).all(), "create", name);
      LOG.info(
          "Created control topic {} (1 partition, replication {}, retention {} days)",
          name,
          replication,
          Duration.ofMillis(RETENTION_MS).toDays());
    } catch (TopicExistsException e) {
      LOG.debug("Control topic {} was created concurrently", name);
    }
  }

  private static <T> T await(
      org.apache.kafka.common.KafkaFuture<T> future, String action, String name) {
    try {
      return future.get(TIMEOUT_S, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException cause
          && (cause instanceof UnknownTopicOrPartitionException
              || cause instanceof TopicExistsException
              || cause instanceof AuthenticationException)) {
        throw cause;
      }
      if (e.getCause() instanceof AuthorizationException refused) {
        MissingAcl.TopicUse use =
            action.equals("create") ? MissingAcl.TopicUse.CREATE : MissingAcl.TopicUse.READ;
        throw MissingAcl.explain(refused, use, name, null);
      }
      throw new ConnectException(
          "Cannot " + action + " control topic " + name + ": " + e.getCause(), e.getCause());
    } catch (TimeoutException e) {
      throw new ConnectException(
          "Cannot "
              + action
              + " control topic "
              + name
              + ": Kafka did not answer within "
              + TIMEOUT_S
              + " s; check iceberg.kafka.bootstrap.servers and the iceberg.kafka.* client"
              + " settings",
          e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ConnectException("Interrupted while waiting to " + action + " " + name, e);
    }
  }
}
