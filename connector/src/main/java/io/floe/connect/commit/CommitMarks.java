/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.commit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.util.JsonUtil;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;

/**
 * What a Floe commit leaves in a snapshot's summary, and reading it back. Keys carry the Connect
 * group id, so several connectors can write one table:
 *
 * <ul>
 *   <li>{@code floe.commit-id}: the cycle's commit id;
 *   <li>{@code floe.connector}: the connector's name;
 *   <li>{@code floe.control-offsets.<group>}: {@code {"topic":..., "topic-id":..., "offsets":
 *       {"<partition>": <offset>}}}, the control-topic position every event below which is in the
 *       table (ARCHITECTURE.md, "Replays are skipped");
 *   <li>{@code floe.source-offsets.<group>}: {@code {"<topic>": {"<partition>": <next offset>}}},
 *       the source offsets the cycle's answers reported;
 *   <li>{@code floe.valid-through-ms.<group>}: the event-time watermark (only forward).
 * </ul>
 */
final class CommitMarks {
  static final String COMMIT_ID = "floe.commit-id";
  static final String CONTROL_OFFSETS = "floe.control-offsets.";
  static final String SOURCE_OFFSETS = "floe.source-offsets.";
  static final String VALID_THROUGH_MS = "floe.valid-through-ms.";
  static final String CONNECTOR = "floe.connector";

  /**
   * In upsert mode, on a snapshot that emptied the table first: the truncates that did, as {@code
   * topic-partition@offset}, comma-separated.
   */
  static final String TRUNCATED_AT = "floe.truncated-at";

  private CommitMarks() {}

  /**
   * The control-topic position of the last commit of {@code groupId} to this table.
   *
   * @param topicId the control topic's id, from the summary
   * @param offsets the position per control partition
   * @param snapshotId the snapshot that holds it
   * @param timestampMs when that snapshot was committed
   * @param validThroughMs its watermark, if any
   * @param sourceOffsets the next source offsets it recorded, by partition (empty if none)
   */
  record Mark(
      String topicId,
      Map<Integer, Long> offsets,
      long snapshotId,
      long timestampMs,
      Long validThroughMs,
      Map<TopicPartition, Long> sourceOffsets) {}

  /** The newest mark of {@code groupId} on the table's main branch, if it has one. */
  static Optional<Mark> latest(Table table, String groupId) {
    Snapshot snapshot = table.currentSnapshot();
    while (snapshot != null) {
      Optional<Mark> mark = read(snapshot, groupId);
      if (mark.isPresent()) {
        return mark;
      }
      Long parent = snapshot.parentId();
      snapshot = parent == null ? null : table.snapshot(parent);
    }
    return Optional.empty();
  }

  static Optional<Mark> read(Snapshot snapshot, String groupId) {
    String json = snapshot.summary().get(CONTROL_OFFSETS + groupId);
    if (json == null) {
      return Optional.empty();
    }
    try {
      JsonNode node = JsonUtil.mapper().readTree(json);
      Map<Integer, Long> offsets = new TreeMap<>();
      for (Map.Entry<String, JsonNode> field : node.get("offsets").properties()) {
        offsets.put(Integer.parseInt(field.getKey()), field.getValue().asLong());
      }
      String validThrough = snapshot.summary().get(VALID_THROUGH_MS + groupId);
      return Optional.of(
          new Mark(
              node.get("topic-id").asText(),
              offsets,
              snapshot.snapshotId(),
              snapshot.timestampMillis(),
              validThrough == null ? null : Long.parseLong(validThrough),
              readSourceOffsets(snapshot.summary().get(SOURCE_OFFSETS + groupId))));
    } catch (JsonProcessingException | RuntimeException e) {
      throw new ConnectException(
          "Snapshot "
              + snapshot.snapshotId()
              + " has an unreadable "
              + CONTROL_OFFSETS
              + groupId
              + " property: "
              + e.getMessage(),
          e);
    }
  }

  private static Map<TopicPartition, Long> readSourceOffsets(String json)
      throws JsonProcessingException {
    Map<TopicPartition, Long> offsets = new java.util.HashMap<>();
    if (json == null) {
      return offsets;
    }
    for (Map.Entry<String, JsonNode> topic : JsonUtil.mapper().readTree(json).properties()) {
      for (Map.Entry<String, JsonNode> partition : topic.getValue().properties()) {
        offsets.put(
            new TopicPartition(topic.getKey(), Integer.parseInt(partition.getKey())),
            partition.getValue().asLong());
      }
    }
    return offsets;
  }

  static String controlOffsets(String topic, String topicId, Map<Integer, Long> offsets) {
    ObjectNode node = JsonUtil.mapper().createObjectNode();
    node.put("topic", topic);
    node.put("topic-id", topicId);
    ObjectNode positions = node.putObject("offsets");
    new TreeMap<>(offsets)
        .forEach((partition, offset) -> positions.put(partition.toString(), offset));
    return node.toString();
  }

  static String sourceOffsets(Map<TopicPartition, Long> offsets) {
    Map<String, Map<Integer, Long>> byTopic = new TreeMap<>();
    offsets.forEach(
        (partition, offset) ->
            byTopic
                .computeIfAbsent(partition.topic(), t -> new TreeMap<>())
                .put(partition.partition(), offset));
    ObjectNode node = JsonUtil.mapper().createObjectNode();
    byTopic.forEach(
        (topic, partitions) -> {
          ObjectNode topicNode = node.putObject(topic);
          partitions.forEach((partition, offset) -> topicNode.put(partition.toString(), offset));
        });
    return node.toString();
  }
}
