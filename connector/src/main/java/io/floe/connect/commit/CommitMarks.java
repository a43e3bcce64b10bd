/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.commit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.floe.connect.branch.CommitBranch;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.util.JsonUtil;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
 *
 * <p>A table committed to a branch other than main holds them on that branch's snapshots, and its
 * position is read from that branch's history ({@link CommitBranch#head}).
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

  /**
   * The table property {@code floe.last-commit.<group>}: the mark of the group's last commit to the
   * main branch, set in the same metadata commit as its snapshot (ARCHITECTURE.md, "Replays are
   * skipped"). Unlike the snapshot it describes, a property outlives snapshot expiry and
   * compactions by other engines, so Floe knows its position when no snapshot left holds its mark.
   *
   * <p>The mark of a commit to another branch is {@code floe.last-commit.<group>.branch_<branch>}
   * ({@link #lastCommitKey}), and its value names the branch: a table property belongs to every
   * branch, while each branch holds commits of its own, so one key per group would hold the last
   * commit to whichever branch was committed last, and read for another branch it would either fail
   * that branch's recovery (a "rollback" that never happened) or lend it a position that is not its
   * own.
   */
  static final String LAST_COMMIT = "floe.last-commit.";

  /** Before the branch's name in the {@link #LAST_COMMIT} key of a branch other than main. */
  static final String BRANCH_INFIX = ".branch_";

  private static final Logger LOG = LoggerFactory.getLogger(CommitMarks.class);

  private CommitMarks() {}

  /**
   * The control-topic position of the last commit of {@code groupId} to this table.
   *
   * @param commitId the cycle that committed it
   * @param topicId the control topic's id, from the summary
   * @param offsets the position per control partition
   * @param snapshotId the snapshot that holds it
   * @param timestampMs when that snapshot was committed
   * @param validThroughMs its watermark, if any
   * @param sourceOffsets the next source offsets it recorded, by partition (empty if none)
   */
  record Mark(
      String commitId,
      String topicId,
      Map<Integer, Long> offsets,
      long snapshotId,
      long timestampMs,
      Long validThroughMs,
      Map<TopicPartition, Long> sourceOffsets) {}

  /**
   * The last commit of {@code groupId} to the table's main branch: {@link #latest(Table, String,
   * CommitBranch)} of main.
   */
  static Optional<Mark> latest(Table table, String groupId) {
    return latest(table, groupId, CommitBranch.MAIN);
  }

  /**
   * The last commit of {@code groupId} to the table's {@code branch}, if it has one: the newest
   * mark on the branch's history ({@link CommitBranch#history}: main's while the branch does not
   * exist yet, since its first commit creates it from there), or, when that history no longer
   * reaches one (another engine compacted the table and expired the snapshots below), the mark of
   * the branch's {@link #LAST_COMMIT} property.
   *
   * @throws HistoryRewoundException when the branch no longer holds the group's last commit to it:
   *     it was rolled back past it, removed, or the table replaced
   */
  static Optional<Mark> latest(Table table, String groupId, CommitBranch branch) {
    Optional<Mark> recorded = recorded(table, groupId, branch);
    Snapshot snapshot = branch.head(table);
    Snapshot oldest = null;
    while (snapshot != null) {
      Optional<Mark> mark = read(snapshot, groupId);
      if (mark.isPresent()) {
        return Optional.of(newest(table, groupId, branch, mark.get(), recorded));
      }
      oldest = snapshot;
      Long parent = snapshot.parentId();
      snapshot = parent == null ? null : table.snapshot(parent);
    }
    if (recorded.isEmpty()) {
      return Optional.empty();
    }
    Mark last = recorded.get();
    boolean cut = oldest != null && oldest.parentId() != null;
    Snapshot kept = table.snapshot(last.snapshotId());
    if (!cut || (kept != null && kept.sequenceNumber() >= oldest.sequenceNumber())) {
      // the whole history is there and does not hold it, or it is newer than the history's start
      throw new HistoryRewoundException(table.name(), groupId, branch, last);
    }
    LOG.info(
        "Table {}: the snapshots of connector group {}'s last commit to branch {} were expired"
            + " (history starts at snapshot {}); its position is read from table property {}",
        table.name(),
        groupId,
        branch,
        oldest.snapshotId(),
        lastCommitKey(groupId, branch));
    return recorded;
  }

  /**
   * The mark found on the history, checked against the one the table's property records: they are
   * the same commit, unless the property is older (written before the mark's commit, by a version
   * that did not set it) or the branch was rolled back below the property's commit.
   */
  private static Mark newest(
      Table table, String groupId, CommitBranch branch, Mark found, Optional<Mark> recorded) {
    if (recorded.isEmpty() || recorded.get().commitId().equals(found.commitId())) {
      return found;
    }
    Mark last = recorded.get();
    Snapshot kept = table.snapshot(last.snapshotId());
    Snapshot foundSnapshot = table.snapshot(found.snapshotId());
    if (kept != null && kept.sequenceNumber() > foundSnapshot.sequenceNumber()) {
      throw new HistoryRewoundException(table.name(), groupId, branch, last);
    }
    LOG.warn(
        "Table {}: property {} records commit {} (snapshot {}), the history's newest mark is"
            + " commit {} (snapshot {}); going on from the history's",
        table.name(),
        lastCommitKey(groupId, branch),
        last.commitId(),
        last.snapshotId(),
        found.commitId(),
        found.snapshotId());
    return found;
  }

  static Optional<Mark> read(Snapshot snapshot, String groupId) {
    String json = snapshot.summary().get(CONTROL_OFFSETS + groupId);
    if (json == null) {
      return Optional.empty();
    }
    try {
      JsonNode node = JsonUtil.mapper().readTree(json);
      String validThrough = snapshot.summary().get(VALID_THROUGH_MS + groupId);
      return Optional.of(
          new Mark(
              snapshot.summary().get(COMMIT_ID),
              node.get("topic-id").asText(),
              readOffsets(node.get("offsets")),
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

  /**
   * The key of the {@link #LAST_COMMIT} property of the group's commits to {@code branch}: {@code
   * floe.last-commit.<group>} for main, {@code floe.last-commit.<group>.branch_<branch>} for
   * another branch.
   */
  static String lastCommitKey(String groupId, CommitBranch branch) {
    return branch.isMain()
        ? LAST_COMMIT + groupId
        : LAST_COMMIT + groupId + BRANCH_INFIX + branch.name();
  }

  /**
   * The mark of the table's {@link #LAST_COMMIT} property of the group's commits to {@code branch},
   * if it has one. A value naming another branch (a key two groups' names happen to share, {@code
   * g.branch_b}'s on main and {@code g}'s on {@code b}) is not this branch's: it is left unread,
   * and the branch's history alone gives its position.
   */
  static Optional<Mark> recorded(Table table, String groupId, CommitBranch branch) {
    String key = lastCommitKey(groupId, branch);
    String json = table.properties().get(key);
    if (json == null) {
      return Optional.empty();
    }
    try {
      JsonNode node = JsonUtil.mapper().readTree(json);
      JsonNode named = node.get("branch");
      String of = named == null ? CommitBranch.MAIN.name() : named.asText();
      if (!of.equals(branch.name())) {
        LOG.warn(
            "Table {}: property {} records a commit to branch {}, not {}: another connector group"
                + " shares its key; the position on branch {} is read from its history alone",
            table.name(),
            key,
            of,
            branch,
            branch);
        return Optional.empty();
      }
      JsonNode validThrough = node.get("valid-through-ms");
      JsonNode sources = node.get("source-offsets");
      return Optional.of(
          new Mark(
              node.get("commit-id").asText(),
              node.get("topic-id").asText(),
              readOffsets(node.get("offsets")),
              node.get("snapshot-id").asLong(),
              node.get("committed-at-ms").asLong(),
              validThrough == null ? null : validThrough.asLong(),
              readSourceOffsets(sources == null ? null : sources.toString())));
    } catch (JsonProcessingException | RuntimeException e) {
      throw new ConnectException(
          "Table " + table.name() + " has an unreadable " + key + " property: " + e.getMessage(),
          e);
    }
  }

  /**
   * The value of the {@link #LAST_COMMIT} property for a commit to {@code branch}: the control
   * offsets' JSON with the commit's id, snapshot, time, source offsets and watermark, and the
   * branch's name when it is not main.
   */
  static String lastCommit(
      CommitBranch branch,
      String commitId,
      long snapshotId,
      long committedAtMs,
      String controlOffsets,
      Map<TopicPartition, Long> sourceOffsets,
      Long validThroughMs) {
    try {
      ObjectNode node = (ObjectNode) JsonUtil.mapper().readTree(controlOffsets);
      node.put("commit-id", commitId);
      node.put("snapshot-id", snapshotId);
      node.put("committed-at-ms", committedAtMs);
      if (!branch.isMain()) {
        node.put("branch", branch.name());
      }
      if (!sourceOffsets.isEmpty()) {
        node.set("source-offsets", JsonUtil.mapper().readTree(sourceOffsets(sourceOffsets)));
      }
      if (validThroughMs != null) {
        node.put("valid-through-ms", validThroughMs);
      }
      return node.toString();
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Map<Integer, Long> readOffsets(JsonNode offsets) {
    Map<Integer, Long> result = new TreeMap<>();
    for (Map.Entry<String, JsonNode> field : offsets.properties()) {
      result.put(Integer.parseInt(field.getKey()), field.getValue().asLong());
    }
    return result;
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
