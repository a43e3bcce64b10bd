/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.cdc;

import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * Reads the change a record makes to one table (one normalizer per table, as its id columns are its
 * own). A record is, by {@link CdcOptions#format()} or, with {@link ChangeFormat#AUTO}, by its
 * look:
 *
 * <ul>
 *   <li>a <b>Debezium envelope</b> (a struct whose schema name ends in {@code .Envelope}, or a
 *       schemaless map with {@code op}, {@code source} and {@code before} or {@code after}): ops
 *       {@code c}, {@code r} and {@code u} upsert the {@code after} image, {@code d} deletes the
 *       key (from the record key, or {@code before} with id columns), {@code t} truncates if
 *       enabled, {@code m} is skipped;
 *   <li>a <b>flattened</b> record, with the op field or {@code __deleted}: {@code __deleted=true}
 *       deletes the key, else the op decides as above (also {@code I}, {@code U}, {@code D}), and a
 *       record with {@code __deleted=false} and no op upserts; the image is the record without the
 *       op field and {@code __deleted} (other fields Debezium adds, such as {@code __source_ts_ms},
 *       stay);
 *   <li>a <b>plain keyed</b> record: an upsert of the value.
 * </ul>
 *
 * <p>A tombstone (null value) deletes the record key in every format: after a Debezium {@code d} it
 * deletes the key once more, which changes nothing. A primary-key change, Debezium's {@code d}
 * (header {@code __debezium.newkey}) then {@code c} (header {@code __debezium.oldkey}), needs
 * nothing of its own: the delete retires the old key and the create upserts the new one.
 * Schema-change, heartbeat and transaction records of Debezium are skipped.
 *
 * <p>A record no change can be read from (an unknown op, no usable key, a truncate when truncates
 * are not enabled, an image holding the unavailable-value placeholder) throws {@link
 * BadChangeException}. Not thread-safe; the {@link #counts()} may be read from any thread.
 */
public final class ChangeNormalizer {
  private static final String ROOT = "(root)";

  private final CdcOptions options;
  private final KeyReader keys;
  private final FieldPath opField;
  private final FieldPath deletedField = FieldPath.of(CdcOptions.DELETED_FIELD);
  private final MarkerFields markers;
  private final UnavailableValues unavailable;
  private final ChangeCounts counts = new ChangeCounts();

  /**
   * Creates the normalizer of one table.
   *
   * @param idColumns the table's id columns, dotted for a field of a struct; empty to take the key
   *     from the fields of the record key
   * @throws IllegalArgumentException if an id column is not a dotted path
   */
  public ChangeNormalizer(CdcOptions options, List<String> idColumns) {
    this.options = options;
    this.keys = new KeyReader(idColumns);
    this.opField = FieldPath.of(options.opField());
    this.markers = new MarkerFields(List.of(opField, deletedField));
    this.unavailable = new UnavailableValues(options.unavailableValuePlaceholder());
  }

  /**
   * The change {@code record} makes, counted.
   *
   * @throws BadChangeException if the record makes no change Floe can apply; the message names the
   *     record's topic, partition and offset and the field at fault
   */
  public Change normalize(SinkRecord record) {
    Change change = read(record);
    counts.count(change);
    return change;
  }

  /** The changes read so far, by kind. */
  public ChangeCounts counts() {
    return counts;
  }

  private Change read(SinkRecord record) {
    Object value = record.value();
    if (value == null) {
      return delete(record, null);
    }
    if (options.format() == ChangeFormat.KEYED) {
      return upsert(record, value);
    }
    SkipReason skip = SkipReason.ofSchema(record.valueSchema());
    if (skip != null) {
      return Change.skip(skip, record);
    }
    return switch (formatOf(value)) {
      case ENVELOPE -> fromEnvelope(record, value);
      case FLATTENED -> fromFlattened(record, value);
      default -> upsert(record, value);
    };
  }

  private ChangeFormat formatOf(Object value) {
    if (options.format() != ChangeFormat.AUTO) {
      return options.format();
    }
    if (isEnvelope(value)) {
      return ChangeFormat.ENVELOPE;
    }
    if (opField.in(value) != FieldPath.MISSING || deletedField.in(value) != FieldPath.MISSING) {
      return ChangeFormat.FLATTENED;
    }
    return ChangeFormat.KEYED;
  }

  private static boolean isEnvelope(Object value) {
    if (value instanceof Struct struct) {
      String name = struct.schema().name();
      return name != null && name.endsWith(".Envelope");
    }
    return value instanceof Map<?, ?> map
        && map.containsKey("op")
        && map.containsKey("source")
        && (map.containsKey("before") || map.containsKey("after"));
  }

  private Change fromEnvelope(SinkRecord record, Object value) {
    Op op = op(record, "op", FieldPath.child(value, "op"), false);
    return switch (op) {
      case UPSERT -> {
        Object after = FieldPath.child(value, "after");
        if (after == null || after == FieldPath.MISSING) {
          throw new BadChangeException(record, "after", "is missing or null in an upsert");
        }
        yield upsert(record, after);
      }
      case DELETE -> {
        Object before = FieldPath.child(value, "before");
        yield delete(record, before == FieldPath.MISSING ? null : before);
      }
      case TRUNCATE -> truncate(record, "op");
      case MESSAGE -> Change.skip(SkipReason.MESSAGE, record);
    };
  }

  private Change fromFlattened(SinkRecord record, Object value) {
    if (deleted(record, deletedField.in(value))) {
      return delete(record, value);
    }
    Object code = opField.in(value);
    if (code == FieldPath.MISSING) {
      return upsert(record, markers.trim(value));
    }
    return switch (op(record, opField.toString(), code, true)) {
      case UPSERT -> upsert(record, markers.trim(value));
      case DELETE -> delete(record, value);
      case TRUNCATE -> truncate(record, opField.toString());
      case MESSAGE -> Change.skip(SkipReason.MESSAGE, record);
    };
  }

  private Change delete(SinkRecord record, Object before) {
    return Change.delete(
        keys.ofDelete(record, before), record, keys.sourceOfDelete(record, before));
  }

  private static Op op(SinkRecord record, String field, Object code, boolean flattened) {
    if (code == FieldPath.MISSING || code == null) {
      throw new BadChangeException(record, field, "(the op) is missing or null");
    }
    Op op = null;
    if (code instanceof String name) {
      op = flattened ? Op.ofFlattened(name) : Op.ofEnvelope(name);
    }
    if (op == null) {
      throw new BadChangeException(
          record,
          field,
          "holds an unknown op; known are c, r, u, d, t and m"
              + (flattened ? ", and I, U and D" : ""));
    }
    return op;
  }

  private static boolean deleted(SinkRecord record, Object marker) {
    if (marker == FieldPath.MISSING || marker == null) {
      return false;
    }
    if (marker instanceof Boolean flag) {
      return flag;
    }
    if (marker.equals("true") || marker.equals("false")) {
      return marker.equals("true");
    }
    throw new BadChangeException(
        record, CdcOptions.DELETED_FIELD, "is neither true nor false (as a boolean or a string)");
  }

  private Change truncate(SinkRecord record, String field) {
    if (!options.truncateEnabled()) {
      throw new BadChangeException(
          record, field, "holds a truncate (op t), and truncates are not enabled for the table");
    }
    return Change.truncate(record);
  }

  private Change upsert(SinkRecord record, Object image) {
    String placeholder = unavailable.find(image);
    if (placeholder != null) {
      throw new BadChangeException(
          record,
          placeholder.isEmpty() ? ROOT : placeholder,
          "holds Debezium's unavailable-value placeholder (a column Debezium did not read, such as"
              + " an unchanged TOASTed one), which must not replace the value in the table");
    }
    RowKey key = keys.ofUpsert(record, image);
    return Change.upsert(key, image == record.value() ? record : withValue(record, image));
  }

  private static SinkRecord withValue(SinkRecord record, Object image) {
    Schema schema = image instanceof Struct struct ? struct.schema() : null;
    return record.newRecord(
        record.topic(),
        record.kafkaPartition(),
        record.keySchema(),
        record.key(),
        schema,
        image,
        record.timestamp(),
        record.headers());
  }
}
