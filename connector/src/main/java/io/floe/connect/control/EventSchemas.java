/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.control;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;

/**
 * The payload schema versions a codec reads and writes: for each event type, versions 1 to N, where
 * N is the version it writes. Checked when built, so a bad new version fails every test instead of
 * a running connector:
 *
 * <ul>
 *   <li>every version is a record with the same full name as version 1;
 *   <li>the newest version can read every older one by Avro schema resolution (a new field needs a
 *       default).
 * </ul>
 *
 * It also works out each version's minimum reader version: the oldest version {@code k} such that
 * every version from {@code k} on is a prefix of it (the same fields, names and schemas, in the
 * same order, with new fields only appended). A reader of such a version decodes the prefix it
 * knows and ignores the appended fields.
 */
final class EventSchemas {

  /** The field property that keeps older readers from ignoring an appended field. */
  static final String MUST_UNDERSTAND = "floe.mustUnderstand";

  private static final EventSchemas BUILT_IN = new EventSchemas(BuiltInSchemas.all());

  private final Map<EventType, List<Schema>> versions;
  private final Map<EventType, int[]> minReaderVersions;

  EventSchemas(Map<EventType, List<Schema>> versions) {
    this.versions = new EnumMap<>(EventType.class);
    this.minReaderVersions = new EnumMap<>(EventType.class);
    for (EventType type : EventType.values()) {
      List<Schema> list = List.copyOf(Require.present(versions.get(type), "schemas of " + type));
      check(type, list);
      this.versions.put(type, list);
      this.minReaderVersions.put(type, minReaderVersions(list));
    }
  }

  /** The schemas of this Floe ({@link BuiltInSchemas}). */
  static EventSchemas builtIn() {
    return BUILT_IN;
  }

  /** The version this codec writes and reads into: the newest one. */
  int latestVersion(EventType type) {
    return versions.get(type).size();
  }

  Schema schema(EventType type, int version) {
    return versions.get(type).get(version - 1);
  }

  int minReaderVersion(EventType type, int version) {
    return minReaderVersions.get(type)[version - 1];
  }

  private static void check(EventType type, List<Schema> list) {
    if (list.isEmpty() || list.size() > 255) {
      throw new IllegalArgumentException(
          type + " needs from 1 to 255 schema versions, has " + list.size());
    }
    Schema first = list.get(0);
    for (int i = 0; i < list.size(); i++) {
      Schema schema = list.get(i);
      if (schema.getType() != Schema.Type.RECORD
          || !schema.getFullName().equals(first.getFullName())) {
        throw new IllegalArgumentException(
            type + " schema version " + (i + 1) + " must be a record named " + first.getFullName());
      }
    }
    Schema latest = list.get(list.size() - 1);
    for (int i = 0; i < list.size() - 1; i++) {
      SchemaCompatibility.SchemaPairCompatibility compatibility =
          SchemaCompatibility.checkReaderWriterCompatibility(latest, list.get(i));
      if (compatibility.getType() != SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE) {
        StringBuilder problems = new StringBuilder();
        for (SchemaCompatibility.Incompatibility problem :
            compatibility.getResult().getIncompatibilities()) {
          problems.append("; ").append(problem.getType()).append(' ').append(problem.getMessage());
          problems.append(" at ").append(problem.getLocation());
        }
        throw new IllegalArgumentException(
            type + " schema version " + list.size() + " cannot read version " + (i + 1) + problems);
      }
    }
  }

  private static int[] minReaderVersions(List<Schema> list) {
    int[] result = new int[list.size()];
    for (int version = 1; version <= list.size(); version++) {
      Schema written = list.get(version - 1);
      int min = version;
      while (min > 1 && isPrefix(list.get(min - 2), written)) {
        min--;
      }
      result[version - 1] = min;
    }
    return result;
  }

  /**
   * Whether {@code older}'s fields are the first fields of {@code newer}, encoded alike, and a
   * reader of {@code older} may ignore the rest.
   */
  private static boolean isPrefix(Schema older, Schema newer) {
    List<Schema.Field> olderFields = older.getFields();
    List<Schema.Field> newerFields = newer.getFields();
    if (olderFields.size() > newerFields.size()) {
      return false;
    }
    for (int i = 0; i < olderFields.size(); i++) {
      Schema.Field a = olderFields.get(i);
      Schema.Field b = newerFields.get(i);
      if (!a.name().equals(b.name()) || !a.schema().equals(b.schema())) {
        return false;
      }
    }
    for (Schema.Field appended : newerFields.subList(olderFields.size(), newerFields.size())) {
      if (Boolean.TRUE.equals(appended.getObjectProp(MUST_UNDERSTAND))) {
        return false;
      }
    }
    return true;
  }
}
