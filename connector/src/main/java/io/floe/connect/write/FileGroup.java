/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.write;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
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
 *
 * <p>A source partition belongs to the group from the moment a row of it is routed here, before the
 * row is written: a row that fails to write may have opened a file, and abandoning that source
 * partition must find the file.
 */
final class FileGroup {
  private final String table;
  private final Map<PartitionKey, PartitionFile> open = new HashMap<>();
  private final List<DataFile> finished = new ArrayList<>();
  private final Set<TopicPartition> sources = new LinkedHashSet<>();
  private final Map<TopicPartition, OffsetTracker> offsets = new LinkedHashMap<>();
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

  /** Takes the rows of a source partition from now on, before the first of them is written. */
  void joined(TopicPartition source) {
    sources.add(source);
  }

  void recorded(TopicPartition source, long offset, long timestampMs) {
    if (!source.equals(lastSource)) {
      lastTracker = offsets.computeIfAbsent(source, tp -> new OffsetTracker());
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

  /** The source partitions that joined the group, whether or not a row of theirs was written. */
  Set<TopicPartition> sources() {
    return sources;
  }

  long records() {
    return offsets.values().stream().mapToLong(OffsetTracker::records).sum();
  }

  /** The offsets of the rows written, by source partition. */
  Map<TopicPartition, OffsetRange> ranges() {
    Map<TopicPartition, OffsetRange> ranges = new LinkedHashMap<>();
    offsets.forEach((source, tracker) -> ranges.put(source, tracker.range()));
    return ranges;
  }
}
