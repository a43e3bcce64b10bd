/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.control;

import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;

/**
 * The payload schemas of this Floe, every version of every event type, oldest first. These are the
 * wire format: a version, once released, never changes. A new version goes at the end of its list;
 * see {@link EventCodec} for the rules that keep older and newer Floe versions able to read each
 * other.
 */
final class BuiltInSchemas {

  private static final String UUID = "{\"type\": \"fixed\", \"name\": \"Uuid\", \"size\": 16}";

  private static final String START_COMMIT_V1 =
      """
      {"type": "record", "name": "StartCommit", "namespace": "io.floe.control", "fields": [
        {"name": "commitId", "type": %s}
      ]}"""
          .formatted(UUID);

  private static final String DATA_WRITTEN_V1 =
      """
      {"type": "record", "name": "DataWritten", "namespace": "io.floe.control", "fields": [
        {"name": "commitId", "type": %s},
        {"name": "table", "type": "string"},
        {"name": "tableUuid", "type": ["null", "Uuid"], "default": null},
        {"name": "manifestLocation", "type": "string"},
        {"name": "manifestLengthBytes", "type": "long"},
        {"name": "partitionSpecId", "type": "int"},
        {"name": "content", "type": "int"},
        {"name": "fileCount", "type": "int"},
        {"name": "recordCount", "type": "long"},
        {"name": "totalFileSizeBytes", "type": "long"},
        {"name": "partitions", "default": null, "type": ["null", {"type": "array", "items":
          {"type": "record", "name": "FieldSummary", "fields": [
            {"name": "containsNull", "type": "boolean"},
            {"name": "containsNan", "type": ["null", "boolean"], "default": null},
            {"name": "lowerBound", "type": ["null", "bytes"], "default": null},
            {"name": "upperBound", "type": ["null", "bytes"], "default": null}
          ]}}]}
      ]}"""
          .formatted(UUID);

  private static final String DATA_WRITTEN_V2 =
      DATA_WRITTEN_V1.substring(0, DATA_WRITTEN_V1.lastIndexOf(']'))
          + """
          ,
            {"name": "changeSources", "default": null, "type": ["null", {"type": "array", "items":
              {"type": "record", "name": "ChangeSource", "fields": [
                {"name": "topic", "type": "string"},
                {"name": "partition", "type": "int"},
                {"name": "truncatedAt", "type": ["null", "long"], "default": null}
              ]}}]}
          ]}""";

  private static final String DATA_WRITTEN_V3 =
      DATA_WRITTEN_V2.substring(0, DATA_WRITTEN_V2.lastIndexOf(']'))
          + """
          ,
            {"name": "handOverId", "type": ["null", "Uuid"], "default": null}
          ]}""";

  private static final String DATA_COMPLETE_V1 =
      """
      {"type": "record", "name": "DataComplete", "namespace": "io.floe.control", "fields": [
        {"name": "commitId", "type": %s},
        {"name": "assignments", "type": {"type": "array", "items":
          {"type": "record", "name": "PartitionOffset", "fields": [
            {"name": "topic", "type": "string"},
            {"name": "partition", "type": "int"},
            {"name": "offset", "type": ["null", "long"], "default": null},
            {"name": "maxTimestampMs", "type": ["null", "long"], "default": null}
          ]}}}
      ]}"""
          .formatted(UUID);

  private static final String COMMIT_COMPLETE_V1 =
      """
      {"type": "record", "name": "CommitComplete", "namespace": "io.floe.control", "fields": [
        {"name": "commitId", "type": %s},
        {"name": "validThroughMs", "type": ["null", "long"], "default": null}
      ]}"""
          .formatted(UUID);

  private static final String COMMIT_REQUEST_V1 =
      """
      {"type": "record", "name": "CommitRequest", "namespace": "io.floe.control", "fields": [
        {"name": "bufferedBytes", "type": "long"}
      ]}""";

  private BuiltInSchemas() {}

  /** Every version of every event type's payload schema, oldest first. */
  static Map<EventType, List<Schema>> all() {
    return Map.of(
        EventType.START_COMMIT, List.of(parse(START_COMMIT_V1)),
        EventType.DATA_WRITTEN,
            List.of(parse(DATA_WRITTEN_V1), parse(DATA_WRITTEN_V2), parse(DATA_WRITTEN_V3)),
        EventType.DATA_COMPLETE, List.of(parse(DATA_COMPLETE_V1)),
        EventType.COMMIT_COMPLETE, List.of(parse(COMMIT_COMPLETE_V1)),
        EventType.COMMIT_REQUEST, List.of(parse(COMMIT_REQUEST_V1)));
  }

  private static Schema parse(String json) {
    return new Schema.Parser().parse(json);
  }
}
