/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.avro;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.avro.Schema;
import org.apache.kafka.connect.errors.DataException;

/**
 * How the subject a schema is registered under is named, as Confluent's serializers do. Configured
 * by its short name or by the class name of Confluent's implementation.
 */
public enum SubjectNameStrategy {
  /** {@code <topic>-key} or {@code <topic>-value}: one schema history per topic. The default. */
  TOPIC_NAME("TopicNameStrategy"),
  /** The record's full name: one history per record type, across topics. */
  RECORD_NAME("RecordNameStrategy"),
  /** {@code <topic>-<record full name>}: one history per record type and topic. */
  TOPIC_RECORD_NAME("TopicRecordNameStrategy");

  /** The package of Confluent's strategy classes, whose names are accepted too. */
  public static final String CONFLUENT_PACKAGE = "io.confluent.kafka.serializers.subject.";

  private final String shortName;

  SubjectNameStrategy(String shortName) {
    this.shortName = shortName;
  }

  /** The name to configure, e.g. {@code TopicNameStrategy}. */
  public String shortName() {
    return shortName;
  }

  /** The strategy with this short name or Confluent class name; exact spelling. */
  public static Optional<SubjectNameStrategy> forName(String name) {
    if (name == null) {
      return Optional.empty();
    }
    String trimmed = name.trim();
    String simple =
        trimmed.startsWith(CONFLUENT_PACKAGE)
            ? trimmed.substring(CONFLUENT_PACKAGE.length())
            : trimmed;
    return Arrays.stream(values()).filter(s -> s.shortName.equals(simple)).findFirst();
  }

  /** The accepted short names, for messages and docs. */
  public static List<String> shortNames() {
    return Arrays.stream(values()).map(SubjectNameStrategy::shortName).collect(Collectors.toList());
  }

  /**
   * The subject for a key or value schema of a topic.
   *
   * @throws DataException when a record-name strategy meets a schema without a name
   */
  public String subject(String topic, boolean isKey, Schema schema) {
    return switch (this) {
      case TOPIC_NAME -> topic + (isKey ? "-key" : "-value");
      case RECORD_NAME -> recordName(schema);
      case TOPIC_RECORD_NAME -> topic + "-" + recordName(schema);
    };
  }

  private String recordName(Schema schema) {
    return switch (schema.getType()) {
      case RECORD, ENUM, FIXED -> schema.getFullName();
      default ->
          throw new DataException(
              shortName
                  + " names subjects after the record, but the schema is a "
                  + schema.getType().getName()
                  + "; use TopicNameStrategy for this converter");
    };
  }

  @Override
  public String toString() {
    return shortName;
  }
}
