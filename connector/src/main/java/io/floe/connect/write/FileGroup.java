/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.write;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionKey;
import org.apache.kafka.common.TopicPartition;

/**
 * Files of one table that are handed over or abandoned together: the open files (one per table
 * partition), the finished files, and the offsets of the source partitions whose rows they hold. By
 * default a group holds one source partition; with shared files, all of them.
 */
final class FileGroup {
  private final String table;
  private final Map<PartitionKey, PartitionFile> open = new HashMap<>();
  private final List<DataFile> finished = new ArrayList<>();
  private final Map<TopicPartition, OffsetTracker> sources = new LinkedHashMap<>();
  private TopicPartition lastSource;
  private OffsetTracker lastTracker;

  FileGroup(String table) {
    this.table = table;
  }

  String table() {
    return table;
  }

  /** The open file of a table partition, or null; the key may be a reused instance. */
  PartitionFile file(PartitionKey key) {
    return open.get(key);
  }

  void opened(PartitionFile file) {
    open.put(file.key(), file);
  }

  /** Takes the data files of a closed file into the finished list. */
  void closed(PartitionFile file, List<DataFile> dataFiles) {
    open.remove(file.key(), file);
    finished.addAll(dataFiles);
  }

  void recorded(TopicPartition source, long offset, long timestampMs) {
    if (!source.equals(lastSource)) {
      lastTracker = sources.computeIfAbsent(source, tp -> new OffsetTracker());
      lastSource = source;
    }
    lastTracker.recorded(offset, timestampMs);
  }

  /** A copy of the open files, safe to close while iterating. */
  List<PartitionFile> openFiles() {
    return new ArrayList<>(open.values());
  }

  List<DataFile> finishedFiles() {
    return finished;
  }

  Set<TopicPartition> sources() {
    return sources.keySet();
  }

  long records() {
    return sources.values().stream().mapToLong(OffsetTracker::records).sum();
  }

  Map<TopicPartition, OffsetRange> ranges() {
    Map<TopicPartition, OffsetRange> ranges = new LinkedHashMap<>();
    sources.forEach((source, tracker) -> ranges.put(source, tracker.range()));
    return ranges;
  }
}
