/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.iceberg.ManifestContent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class EventValidationTest {
  private static final UUID ID = SampleEvents.COMMIT_ID;

  static Stream<Arguments> invalidEvents() {
    return Stream.of(
        invalid(
            "StartCommit(null)",
            NullPointerException.class,
            "commitId is required",
            () -> new StartCommit(null)),
        invalid(
            "empty table",
            IllegalArgumentException.class,
            "table must not be empty",
            () -> dataWritten("", "s3://b/m.avro", 10L, 1, 1L, 1L)),
        invalid(
            "null table",
            NullPointerException.class,
            "table is required",
            () -> dataWritten(null, "s3://b/m.avro", 10L, 1, 1L, 1L)),
        invalid(
            "empty manifest location",
            IllegalArgumentException.class,
            "manifestLocation must not be empty",
            () -> dataWritten("db.t", "", 10L, 1, 1L, 1L)),
        invalid(
            "empty manifest",
            IllegalArgumentException.class,
            "manifestLengthBytes must be positive, was 0",
            () -> dataWritten("db.t", "s3://b/m.avro", 0L, 1, 1L, 1L)),
        invalid(
            "negative file count",
            IllegalArgumentException.class,
            "fileCount must be positive, was -1",
            () -> dataWritten("db.t", "s3://b/m.avro", 10L, -1, 1L, 1L)),
        invalid(
            "no files",
            IllegalArgumentException.class,
            "fileCount must be positive, was 0",
            () -> dataWritten("db.t", "s3://b/m.avro", 10L, 0, 1L, 1L)),
        invalid(
            "negative record count",
            IllegalArgumentException.class,
            "recordCount must not be negative, was -5",
            () -> dataWritten("db.t", "s3://b/m.avro", 10L, 1, -5L, 1L)),
        invalid(
            "negative size",
            IllegalArgumentException.class,
            "totalFileSizeBytes must not be negative, was -1",
            () -> dataWritten("db.t", "s3://b/m.avro", 10L, 1, 1L, -1L)),
        invalid(
            "negative spec id",
            IllegalArgumentException.class,
            "partitionSpecId must not be negative, was -1",
            () ->
                new DataWritten(
                    ID, "db.t", null, "m", 1L, -1, ManifestContent.DATA, 1, 1L, 1L, null)),
        invalid(
            "no content",
            NullPointerException.class,
            "content is required",
            () -> new DataWritten(ID, "db.t", null, "m", 1L, 0, null, 1, 1L, 1L, null)),
        invalid(
            "null field summary",
            NullPointerException.class,
            "an item of partitions is required",
            () ->
                new DataWritten(
                    ID, "db.t", null, "m", 1L, 0, ManifestContent.DATA, 1, 1L, 1L, nullList())),
        invalid(
            "empty topic",
            IllegalArgumentException.class,
            "topic must not be empty",
            () -> new PartitionOffset("", 0, 1L, 1L)),
        invalid(
            "negative partition",
            IllegalArgumentException.class,
            "partition must not be negative, was -1",
            () -> new PartitionOffset("t", -1, 1L, 1L)),
        invalid(
            "negative offset",
            IllegalArgumentException.class,
            "offset must not be negative, was -1",
            () -> new PartitionOffset("t", 0, -1L, 1L)),
        invalid(
            "no timestamp as -1",
            IllegalArgumentException.class,
            "maxTimestampMs must not be negative, was -1",
            () -> new PartitionOffset("t", 0, 1L, -1L)),
        invalid(
            "partition twice",
            IllegalArgumentException.class,
            "assignments list topic t partition 3 more than once",
            () ->
                new DataComplete(
                    ID,
                    List.of(
                        new PartitionOffset("t", 3, 1L, null),
                        new PartitionOffset("t", 3, 2L, null)))),
        invalid(
            "null assignments",
            NullPointerException.class,
            "assignments is required",
            () -> new DataComplete(ID, null)),
        invalid(
            "negative watermark",
            IllegalArgumentException.class,
            "validThroughMs must not be negative, was -5",
            () -> new CommitComplete(ID, -5L)),
        invalid(
            "negative buffered bytes",
            IllegalArgumentException.class,
            "bufferedBytes must not be negative, was -1",
            () -> new CommitRequest(-1)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalidEvents")
  void invalidEventsAreRejectedNamingTheField(
      String name, Class<? extends Throwable> type, String message, Executable construct) {
    assertThatThrownBy(construct::execute).isInstanceOf(type).hasMessage(message);
  }

  @Test
  void aHeaderNeedsAConnectorATaskAndATime() {
    EventCodec codec = new EventCodec();
    StartCommit event = new StartCommit(ID);

    assertThatThrownBy(() -> codec.encode("", "t-0", 1L, event))
        .hasMessage("connectorGroupId must not be empty");
    assertThatThrownBy(() -> codec.encode("c", null, 1L, event))
        .hasMessage("senderTaskId is required");
    assertThatThrownBy(() -> codec.encode("c", "t-0", -1L, event))
        .hasMessage("createdAtMs must not be negative, was -1");
    assertThatThrownBy(() -> codec.encode("c", "t-0", 1L, null)).hasMessage("event is required");
  }

  @Test
  void anEnvelopeHeaderMustNameItsEventsType() {
    EventHeader header = new EventHeader(EventType.START_COMMIT.code(), 1, 1, "c", "c-0", 1L);

    assertThatThrownBy(() -> new Envelope(header, new CommitRequest(1)))
        .hasMessage("header type code 1 does not match event type COMMIT_REQUEST");
  }

  @Test
  void eventsDoNotShareMutableState() {
    List<PartitionOffset> offsets = new ArrayList<>(List.of(new PartitionOffset("t", 0, 1L, 1L)));
    DataComplete complete = new DataComplete(ID, offsets);
    offsets.add(new PartitionOffset("t", 1, 1L, 1L));
    byte[] bound = {1, 2};
    DataWritten.FieldSummary summary = new DataWritten.FieldSummary(false, null, bound, bound);
    bound[0] = 9;
    summary.lowerBound()[1] = 9;

    assertThat(complete.assignments()).hasSize(1);
    assertThatThrownBy(() -> complete.assignments().add(null))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThat(summary.lowerBound()).containsExactly(1, 2);
    assertThat(summary)
        .isEqualTo(new DataWritten.FieldSummary(false, null, new byte[] {1, 2}, new byte[] {1, 2}));
    assertThat(summary.toString()).contains("lowerBound=0102");
  }

  private static Arguments invalid(
      String name, Class<? extends Throwable> type, String message, Executable construct) {
    return Arguments.of(name, type, message, construct);
  }

  private static DataWritten dataWritten(
      String table, String location, long length, int files, long records, long bytes) {
    return new DataWritten(
        ID, table, null, location, length, 0, ManifestContent.DATA, files, records, bytes, null);
  }

  private static List<DataWritten.FieldSummary> nullList() {
    List<DataWritten.FieldSummary> list = new ArrayList<>();
    list.add(null);
    return list;
  }
}
