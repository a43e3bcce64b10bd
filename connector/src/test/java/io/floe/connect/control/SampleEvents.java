/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.control;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import org.apache.iceberg.ManifestContent;

/** Events as a running connector would send them. */
final class SampleEvents {

  static final String GROUP = "page-views-to-iceberg";
  static final String TASK = "page-views-to-iceberg-17";
  static final long CREATED_AT_MS = 1_767_225_600_123L;
  static final UUID COMMIT_ID = UUID.fromString("3f2a9c1e-8d4b-4c1a-9f0e-2b7d6c5a4e31");
  static final UUID TABLE_UUID = UUID.fromString("a81d4fae-7dec-11d0-a765-00a0c91e6bf6");
  static final UUID HAND_OVER_ID = UUID.fromString("5b0c8e2f-1d3a-4f6b-8c9d-0e1f2a3b4c5d");
  static final String MANIFEST =
      "s3://acme-analytics-prod-eu-west-1/warehouse/analytics.db/page_view_events_by_region"
          + "/metadata/floe-page-views-to-iceberg-17-3f2a9c1e-8d4b-4c1a-9f0e-2b7d6c5a4e31"
          + "-a81d4fae-7dec-11d0-a765-00a0c91e6bf6-m0.avro";

  private SampleEvents() {}

  /** A data manifest of a table partitioned by day and region. */
  static DataWritten dataWritten() {
    return new DataWritten(
        COMMIT_ID,
        "analytics.page_view_events_by_region",
        TABLE_UUID,
        MANIFEST,
        9_417L,
        3,
        ManifestContent.DATA,
        48,
        12_500_000L,
        6_442_450_944L,
        List.of(
            new DataWritten.FieldSummary(false, false, new byte[] {0x3c, 0x50, 0, 0}, null),
            new DataWritten.FieldSummary(
                true,
                null,
                "ap-south-1".getBytes(StandardCharsets.UTF_8),
                "us-west-2".getBytes(StandardCharsets.UTF_8))));
  }

  static DataWritten unpartitionedDeletes() {
    return new DataWritten(
        COMMIT_ID,
        "db.t",
        null,
        "file:/tmp/m.avro",
        1L,
        0,
        ManifestContent.DELETES,
        1,
        0L,
        0L,
        null);
  }

  static DataComplete dataComplete() {
    return new DataComplete(
        COMMIT_ID,
        List.of(
            new PartitionOffset("page-views", 0, 1_234_567L, CREATED_AT_MS - 1_000),
            new PartitionOffset("page-views", 1, null, null),
            new PartitionOffset("page-views.v2", 0, 0L, 0L)));
  }

  /** One of each event type, and their nullable fields both ways. */
  static List<ControlEvent> all() {
    return List.of(
        new StartCommit(COMMIT_ID),
        dataWritten(),
        unpartitionedDeletes(),
        unpartitionedDeletes()
            .withChangeSources(
                List.of(new ChangeSource("orders", 0, null), new ChangeSource("orders", 2, 99L))),
        unpartitionedDeletes().withChangeSources(List.of()),
        dataWritten().withHandOverId(HAND_OVER_ID),
        unpartitionedDeletes()
            .withChangeSources(List.of(new ChangeSource("orders", 1, null)))
            .withHandOverId(HAND_OVER_ID),
        dataComplete(),
        new DataComplete(COMMIT_ID, List.of()),
        new CommitComplete(COMMIT_ID, CREATED_AT_MS - 60_000),
        new CommitComplete(COMMIT_ID, null),
        new CommitRequest(512L * 1024 * 1024),
        new CommitRequest(0));
  }
}
