/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.control;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import org.apache.iceberg.ManifestContent;
import org.apache.iceberg.ManifestFile;

/**
 * Worker to coordinator: one Iceberg manifest the worker wrote for {@code table} in cycle {@code
 * commitId}. The event refers to the manifest instead of listing its files, so it stays a few
 * hundred bytes whatever the number of files or columns. It carries every field the coordinator
 * needs to rebuild the manifest's {@link ManifestFile} and commit it (for a data manifest with
 * {@code AppendFiles.appendManifest}), and to check the manifest when it reads it back.
 *
 * <p>The manifest holds only ADDED entries, written without a snapshot id and with unassigned
 * sequence numbers, so Iceberg assigns both at commit. A worker writes one manifest per table,
 * content and partition spec, so a table with data and delete files gets two events.
 *
 * <p>Payload schema, version 1 (Avro), fields in this order: {@code fixed Uuid(16) commitId; string
 * table; union {null, Uuid} tableUuid = null; string manifestLocation; long manifestLengthBytes;
 * int partitionSpecId; int content; int fileCount; long recordCount; long totalFileSizeBytes; union
 * {null, array<FieldSummary>} partitions = null;} with {@code record FieldSummary { boolean
 * containsNull; union {null, boolean} containsNan = null; union {null, bytes} lowerBound = null;
 * union {null, bytes} upperBound = null; }}. {@code content} is Iceberg's manifest content id (0
 * data, 1 deletes).
 *
 * <p>Version 2 appends {@code union {null, array<ChangeSource>} changeSources = null;} (see {@link
 * ChangeSource}), which a reader of version 1 may ignore. Version 3 appends {@code union {null,
 * Uuid} handOverId = null;}, which a reader of version 1 or 2 may ignore.
 *
 * @param commitId the cycle the files belong to
 * @param table the table's name as the connector routes to it
 * @param tableUuid the table's {@code uuid()} when the worker wrote the files, so the coordinator
 *     can tell a dropped and recreated table; {@code null} when unknown
 * @param manifestLocation the manifest's location ({@link ManifestFile#path()})
 * @param manifestLengthBytes the manifest's length ({@link ManifestFile#length()})
 * @param partitionSpecId the partition spec of every file in the manifest
 * @param content whether the manifest lists data or delete files
 * @param fileCount the number of files in the manifest ({@link ManifestFile#addedFilesCount()})
 * @param recordCount the rows in those files ({@link ManifestFile#addedRowsCount()}); for delete
 *     files the number of deletes
 * @param totalFileSizeBytes the summed size of those files
 * @param partitions the manifest's partition field summaries ({@link ManifestFile#partitions()}),
 *     one per field of the spec, which Iceberg keeps in the manifest list for scan planning; {@code
 *     null} when unknown
 * @param changeSources in upsert mode, on the key manifest of a hand-over: the source partitions
 *     whose changes the hand-over holds, and the truncates read from them; {@code null} otherwise,
 *     or when the sender does not tell them (version 1)
 * @param handOverId the hand-over the manifest belongs to, the same on every event of one hand-over
 *     of a task (its manifests' names hold it too): the coordinator of an upsert table takes the
 *     manifests of one hand-over together; {@code null} when the sender does not tell it (versions
 *     1 and 2)
 */
public record DataWritten(
    UUID commitId,
    String table,
    UUID tableUuid,
    String manifestLocation,
    long manifestLengthBytes,
    int partitionSpecId,
    ManifestContent content,
    int fileCount,
    long recordCount,
    long totalFileSizeBytes,
    List<FieldSummary> partitions,
    List<ChangeSource> changeSources,
    UUID handOverId)
    implements ControlEvent {

  public DataWritten {
    Require.present(commitId, "commitId");
    Require.nonEmpty(table, "table");
    Require.nonEmpty(manifestLocation, "manifestLocation");
    Require.positive(manifestLengthBytes, "manifestLengthBytes");
    Require.nonNegative(partitionSpecId, "partitionSpecId");
    Require.present(content, "content");
    Require.positive(fileCount, "fileCount");
    Require.nonNegative(recordCount, "recordCount");
    Require.nonNegative(totalFileSizeBytes, "totalFileSizeBytes");
    if (partitions != null) {
      for (FieldSummary summary : partitions) {
        Require.present(summary, "an item of partitions");
      }
      partitions = List.copyOf(partitions);
    }
    if (changeSources != null) {
      for (ChangeSource source : changeSources) {
        Require.present(source, "an item of changeSources");
      }
      changeSources = List.copyOf(changeSources);
    }
  }

  /**
   * An event without change sources (as every event but an upsert hand-over's key manifest) and
   * without a hand-over id.
   */
  public DataWritten(
      UUID commitId,
      String table,
      UUID tableUuid,
      String manifestLocation,
      long manifestLengthBytes,
      int partitionSpecId,
      ManifestContent content,
      int fileCount,
      long recordCount,
      long totalFileSizeBytes,
      List<FieldSummary> partitions) {
    this(
        commitId,
        table,
        tableUuid,
        manifestLocation,
        manifestLengthBytes,
        partitionSpecId,
        content,
        fileCount,
        recordCount,
        totalFileSizeBytes,
        partitions,
        null,
        null);
  }

  /** This event with {@code changeSources}. */
  public DataWritten withChangeSources(List<ChangeSource> changeSources) {
    return with(changeSources, handOverId);
  }

  /** This event with {@code handOverId}. */
  public DataWritten withHandOverId(UUID handOverId) {
    return with(changeSources, handOverId);
  }

  private DataWritten with(List<ChangeSource> changeSources, UUID handOverId) {
    return new DataWritten(
        commitId,
        table,
        tableUuid,
        manifestLocation,
        manifestLengthBytes,
        partitionSpecId,
        content,
        fileCount,
        recordCount,
        totalFileSizeBytes,
        partitions,
        changeSources,
        handOverId);
  }

  /**
   * The event for {@code manifest}, as {@code ManifestWriter.toManifestFile()} returns it.
   *
   * @throws IllegalArgumentException when the manifest cannot be committed as written: it has
   *     existing or deleted entries, a snapshot id, or an assigned sequence number
   */
  public static DataWritten of(
      UUID commitId, String table, UUID tableUuid, ManifestFile manifest, long totalFileSizeBytes) {
    Require.present(manifest, "manifest");
    if (manifest.hasExistingFiles() || manifest.hasDeletedFiles()) {
      throw new IllegalArgumentException(
          "manifest " + manifest.path() + " must hold only added files");
    }
    if (manifest.snapshotId() != null || manifest.sequenceNumber() != -1) {
      throw new IllegalArgumentException(
          "manifest "
              + manifest.path()
              + " must be written without a snapshot id and sequence number, which the commit"
              + " assigns");
    }
    List<FieldSummary> partitions = null;
    if (manifest.partitions() != null) {
      partitions = new ArrayList<>(manifest.partitions().size());
      for (ManifestFile.PartitionFieldSummary summary : manifest.partitions()) {
        partitions.add(FieldSummary.of(summary));
      }
    }
    return new DataWritten(
        commitId,
        table,
        tableUuid,
        manifest.path(),
        manifest.length(),
        manifest.partitionSpecId(),
        manifest.content(),
        Require.present(manifest.addedFilesCount(), "manifest.addedFilesCount"),
        Require.present(manifest.addedRowsCount(), "manifest.addedRowsCount"),
        totalFileSizeBytes,
        partitions);
  }

  @Override
  public EventType type() {
    return EventType.DATA_WRITTEN;
  }

  /**
   * A partition field's summary over the manifest's files, as in {@link
   * ManifestFile.PartitionFieldSummary}: bounds are Iceberg's single-value binary serialization of
   * the partition value.
   */
  public record FieldSummary(
      boolean containsNull, Boolean containsNan, byte[] lowerBound, byte[] upperBound) {

    public FieldSummary {
      lowerBound = lowerBound == null ? null : lowerBound.clone();
      upperBound = upperBound == null ? null : upperBound.clone();
    }

    static FieldSummary of(ManifestFile.PartitionFieldSummary summary) {
      return new FieldSummary(
          summary.containsNull(),
          summary.containsNaN(),
          bytes(summary.lowerBound()),
          bytes(summary.upperBound()));
    }

    private static byte[] bytes(ByteBuffer buffer) {
      if (buffer == null) {
        return null;
      }
      byte[] bytes = new byte[buffer.remaining()];
      buffer.duplicate().get(bytes);
      return bytes;
    }

    @Override
    public byte[] lowerBound() {
      return lowerBound == null ? null : lowerBound.clone();
    }

    @Override
    public byte[] upperBound() {
      return upperBound == null ? null : upperBound.clone();
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof FieldSummary that
          && containsNull == that.containsNull
          && Objects.equals(containsNan, that.containsNan)
          && Arrays.equals(lowerBound, that.lowerBound)
          && Arrays.equals(upperBound, that.upperBound);
    }

    @Override
    public int hashCode() {
      return Objects.hash(
          containsNull, containsNan, Arrays.hashCode(lowerBound), Arrays.hashCode(upperBound));
    }

    @Override
    public String toString() {
      return "FieldSummary[containsNull="
          + containsNull
          + ", containsNan="
          + containsNan
          + ", lowerBound="
          + hex(lowerBound)
          + ", upperBound="
          + hex(upperBound)
          + "]";
    }

    private static String hex(byte[] bytes) {
      return bytes == null ? "null" : HexFormat.of().formatHex(bytes);
    }
  }
}
