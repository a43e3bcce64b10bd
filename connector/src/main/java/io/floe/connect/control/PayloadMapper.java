/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.control;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.generic.GenericRecordBuilder;
import org.apache.iceberg.ManifestContent;

/**
 * Turns events into Avro records of a payload schema and back, field by field by name. Fields of
 * the schema the event does not have get their schema defaults; fields the event lacks in the
 * record are an error of the schema list, caught by the round-trip tests.
 */
final class PayloadMapper {

  private PayloadMapper() {}

  static GenericRecord toRecord(ControlEvent event, Schema schema) {
    GenericRecordBuilder record = new GenericRecordBuilder(schema);
    if (event instanceof StartCommit start) {
      record.set("commitId", uuid(start.commitId(), schema, "commitId"));
    } else if (event instanceof DataWritten written) {
      record
          .set("commitId", uuid(written.commitId(), schema, "commitId"))
          .set("table", written.table())
          .set("tableUuid", uuid(written.tableUuid(), schema, "tableUuid"))
          .set("manifestLocation", written.manifestLocation())
          .set("manifestLengthBytes", written.manifestLengthBytes())
          .set("partitionSpecId", written.partitionSpecId())
          .set("content", written.content().id())
          .set("fileCount", written.fileCount())
          .set("recordCount", written.recordCount())
          .set("totalFileSizeBytes", written.totalFileSizeBytes())
          .set("partitions", summaries(written.partitions(), schema.getField("partitions")));
      Schema.Field sources = schema.getField("changeSources");
      if (sources != null) {
        record.set(sources, changeSources(written.changeSources(), sources));
      }
      if (schema.getField("handOverId") != null) {
        record.set("handOverId", uuid(written.handOverId(), schema, "handOverId"));
      }
    } else if (event instanceof DataComplete complete) {
      Schema item = nonNull(schema.getField("assignments").schema()).getElementType();
      List<GenericRecord> assignments = new ArrayList<>(complete.assignments().size());
      for (PartitionOffset offset : complete.assignments()) {
        assignments.add(
            new GenericRecordBuilder(item)
                .set("topic", offset.topic())
                .set("partition", offset.partition())
                .set("offset", offset.offset())
                .set("maxTimestampMs", offset.maxTimestampMs())
                .build());
      }
      record
          .set("commitId", uuid(complete.commitId(), schema, "commitId"))
          .set("assignments", assignments);
    } else if (event instanceof CommitComplete complete) {
      record
          .set("commitId", uuid(complete.commitId(), schema, "commitId"))
          .set("validThroughMs", complete.validThroughMs());
    } else if (event instanceof CommitRequest request) {
      record.set("bufferedBytes", request.bufferedBytes());
    } else {
      throw new IllegalStateException("no mapping for event type " + event.type());
    }
    return record.build();
  }

  static ControlEvent fromRecord(EventType type, GenericRecord record) {
    switch (type) {
      case START_COMMIT:
        return new StartCommit(uuid(record.get("commitId")));
      case DATA_WRITTEN:
        return new DataWritten(
            uuid(record.get("commitId")),
            string(record.get("table")),
            uuid(record.get("tableUuid")),
            string(record.get("manifestLocation")),
            (Long) record.get("manifestLengthBytes"),
            (Integer) record.get("partitionSpecId"),
            content((Integer) record.get("content")),
            (Integer) record.get("fileCount"),
            (Long) record.get("recordCount"),
            (Long) record.get("totalFileSizeBytes"),
            summaries(record.get("partitions")),
            record.getSchema().getField("changeSources") == null
                ? null
                : changeSources(record.get("changeSources")),
            record.getSchema().getField("handOverId") == null
                ? null
                : uuid(record.get("handOverId")));
      case DATA_COMPLETE:
        List<PartitionOffset> assignments = new ArrayList<>();
        for (Object item : (List<?>) record.get("assignments")) {
          GenericRecord offset = (GenericRecord) item;
          assignments.add(
              new PartitionOffset(
                  string(offset.get("topic")),
                  (Integer) offset.get("partition"),
                  (Long) offset.get("offset"),
                  (Long) offset.get("maxTimestampMs")));
        }
        return new DataComplete(uuid(record.get("commitId")), assignments);
      case COMMIT_COMPLETE:
        return new CommitComplete(
            uuid(record.get("commitId")), (Long) record.get("validThroughMs"));
      case COMMIT_REQUEST:
        return new CommitRequest((Long) record.get("bufferedBytes"));
      default:
        throw new IllegalStateException("no mapping for event type " + type);
    }
  }

  private static List<GenericRecord> changeSources(List<ChangeSource> sources, Schema.Field field) {
    if (sources == null) {
      return null;
    }
    Schema item = nonNull(field.schema()).getElementType();
    List<GenericRecord> records = new ArrayList<>(sources.size());
    for (ChangeSource source : sources) {
      records.add(
          new GenericRecordBuilder(item)
              .set("topic", source.topic())
              .set("partition", source.partition())
              .set("truncatedAt", source.truncatedAt())
              .build());
    }
    return records;
  }

  private static List<ChangeSource> changeSources(Object value) {
    if (value == null) {
      return null;
    }
    List<ChangeSource> sources = new ArrayList<>();
    for (Object item : (List<?>) value) {
      GenericRecord source = (GenericRecord) item;
      sources.add(
          new ChangeSource(
              string(source.get("topic")),
              (Integer) source.get("partition"),
              (Long) source.get("truncatedAt")));
    }
    return sources;
  }

  private static List<GenericRecord> summaries(
      List<DataWritten.FieldSummary> summaries, Schema.Field field) {
    if (summaries == null) {
      return null;
    }
    Schema item = nonNull(field.schema()).getElementType();
    List<GenericRecord> records = new ArrayList<>(summaries.size());
    for (DataWritten.FieldSummary summary : summaries) {
      records.add(
          new GenericRecordBuilder(item)
              .set("containsNull", summary.containsNull())
              .set("containsNan", summary.containsNan())
              .set("lowerBound", buffer(summary.lowerBound()))
              .set("upperBound", buffer(summary.upperBound()))
              .build());
    }
    return records;
  }

  private static List<DataWritten.FieldSummary> summaries(Object value) {
    if (value == null) {
      return null;
    }
    List<DataWritten.FieldSummary> summaries = new ArrayList<>();
    for (Object item : (List<?>) value) {
      GenericRecord summary = (GenericRecord) item;
      summaries.add(
          new DataWritten.FieldSummary(
              (Boolean) summary.get("containsNull"),
              (Boolean) summary.get("containsNan"),
              bytes(summary.get("lowerBound")),
              bytes(summary.get("upperBound"))));
    }
    return summaries;
  }

  private static ManifestContent content(int id) {
    for (ManifestContent content : ManifestContent.values()) {
      if (content.id() == id) {
        return content;
      }
    }
    throw new IllegalArgumentException("content must be 0 (data) or 1 (deletes), was " + id);
  }

  /** {@code uuid} as a value of the fixed schema of {@code field}, nullable or not. */
  private static GenericData.Fixed uuid(UUID uuid, Schema record, String field) {
    if (uuid == null) {
      return null;
    }
    ByteBuffer bytes = ByteBuffer.allocate(16);
    bytes.putLong(uuid.getMostSignificantBits()).putLong(uuid.getLeastSignificantBits());
    return new GenericData.Fixed(nonNull(record.getField(field).schema()), bytes.array());
  }

  private static UUID uuid(Object value) {
    if (value == null) {
      return null;
    }
    ByteBuffer bytes = ByteBuffer.wrap(((GenericData.Fixed) value).bytes());
    return new UUID(bytes.getLong(), bytes.getLong());
  }

  private static String string(Object value) {
    return value == null ? null : value.toString();
  }

  private static ByteBuffer buffer(byte[] bytes) {
    return bytes == null ? null : ByteBuffer.wrap(bytes);
  }

  private static byte[] bytes(Object value) {
    if (value == null) {
      return null;
    }
    ByteBuffer buffer = ((ByteBuffer) value).duplicate();
    byte[] bytes = new byte[buffer.remaining()];
    buffer.get(bytes);
    return bytes;
  }

  /** {@code schema}, or its non-null branch when it is a nullable union. */
  private static Schema nonNull(Schema schema) {
    if (schema.getType() != Schema.Type.UNION) {
      return schema;
    }
    for (Schema branch : schema.getTypes()) {
      if (branch.getType() != Schema.Type.NULL) {
        return branch;
      }
    }
    throw new IllegalArgumentException("union without a non-null branch: " + schema);
  }
}
