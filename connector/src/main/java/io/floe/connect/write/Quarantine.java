/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.write;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import io.floe.connect.config.Secrets;
import io.floe.connect.contract.ContractViolation;
import io.floe.connect.json.JsonConverter;
import io.floe.connect.json.JsonConverterConfig;
import io.floe.connect.write.TableStates.TableState;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.StringJoiner;
import java.util.function.Function;
import org.apache.iceberg.data.Record;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.header.Header;
import org.apache.kafka.connect.header.Headers;
import org.apache.kafka.connect.sink.SinkRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The quarantine tables of contract rejects (README, "Quarantine table"): a record that breaks its
 * table's contract, where that table's {@code contract-rejects=table}, becomes a {@link
 * QuarantineRow} of the table's quarantine table, which the task writes as any other table of its
 * cycle (a {@link TableStates} state, a writer of the pool), so the rows are handed over and
 * committed with the offsets they cover, exactly once.
 *
 * <p>The record's key, value and headers are kept as Connect JSON with their schemas (Floe's JSON
 * converter, {@code schemas.enable=true}, decimals as numbers, nulls kept): the converters ran
 * before the task, so the bytes read from Kafka are gone, and this form tells its own schema and
 * converts back to the same Connect data with a JSON converter. The headers are an array of {@code
 * {"key", "value"}} in the record's order, as a record may repeat a key.
 *
 * <p>Logs the first reject of each table in each hand-over at INFO and the others at DEBUG, never a
 * value. Not thread-safe: used under the {@link SinkWriter}'s caller's lock.
 */
final class Quarantine {
  private static final Logger LOG = LoggerFactory.getLogger(Quarantine.class);

  private final Function<String, Optional<String>> rejectsTables;
  private final TableStates states;
  private final SinkWriter.RecordOutcomes outcomes;
  private final Secrets secrets;
  private final Clock clock;

  /** The converters of keys and values to JSON, made at the first reject. */
  private JsonConverter keys;

  private JsonConverter values;
  private final Set<String> loggedSinceHandOver = new HashSet<>();
  private long quarantined;

  /**
   * @param rejectsTables each table's quarantine table, by the table's name, when its rejects go to
   *     one
   * @param outcomes where a record that cannot be quarantined goes, as a bad record
   * @param secrets the connector's secrets, masked in what is told of a failure
   * @param clock when records are rejected
   */
  Quarantine(
      Function<String, Optional<String>> rejectsTables,
      TableStates states,
      SinkWriter.RecordOutcomes outcomes,
      Secrets secrets,
      Clock clock) {
    this.rejectsTables = rejectsTables;
    this.states = states;
    this.outcomes = outcomes;
    this.secrets = secrets;
    this.clock = clock;
  }

  private static JsonConverter converter(boolean isKey) {
    JsonConverter converter = new JsonConverter();
    converter.configure(
        Map.of(
            JsonConverterConfig.SCHEMAS_ENABLE, "true",
            JsonConverterConfig.DECIMAL_FORMAT, "NUMERIC",
            JsonConverterConfig.REPLACE_NULL_WITH_DEFAULT, "false"),
        isKey);
    return converter;
  }

  /** The quarantine table of {@code table}'s contract rejects, if they go to one. */
  Optional<String> tableOf(String table) {
    return table == null ? Optional.empty() : rejectsTables.apply(table);
  }

  /**
   * Writes a record that {@code table}'s contract refused to its quarantine table, as a row of the
   * cycle like any other, from {@code origin} at {@code offset}. When its row cannot be made (the
   * quarantine table is not one, the key or value cannot be written as JSON), the record is a bad
   * record, told with both reasons; a failure of the catalog is not the record's fault and is
   * thrown as for any table ({@link SinkWriter#catalogFailure}).
   */
  void take(
      SinkRecord record,
      String table,
      String quarantineTable,
      ContractViolation violation,
      TopicPartition origin,
      long offset,
      long timestamp) {
    Rejected rejected;
    try {
      rejected = reject(record, table, quarantineTable, violation);
    } catch (DataException e) {
      outcomes.failed(
          record,
          table,
          new DataException(
              violation.getMessage()
                  + ", and it could not be written to the quarantine table "
                  + quarantineTable
                  + ": "
                  + secrets.mask(String.valueOf(e.getMessage())),
              e));
      return;
    } catch (RuntimeException e) {
      throw SinkWriter.catalogFailure(e, quarantineTable, origin, offset);
    }
    rejected.state().writer().write(origin, offset, timestamp, rejected.row());
    written(record, table, quarantineTable, violation);
  }

  /**
   * The quarantine row of {@code record}, which {@code table}'s contract refused, and the state of
   * the quarantine table it goes to (loaded, or created).
   *
   * @throws org.apache.kafka.connect.errors.DataException when the quarantine table is not one, or
   *     the record's key or value cannot be written as JSON: the record's, or its quarantine
   *     table's, fault
   * @throws RuntimeException when the quarantine table cannot be loaded or created
   */
  private Rejected reject(
      SinkRecord record, String table, String quarantineTable, ContractViolation violation) {
    TableState state = states.fixed(quarantineTable, QuarantineRow.SCHEMA, QuarantineRow.SPEC);
    QuarantineRow.check(quarantineTable, state.writer().schema());
    if (keys == null) {
      keys = converter(true);
      values = converter(false);
    }
    Record row =
        QuarantineRow.of(
            state.writer().schema(),
            record,
            table,
            violation,
            clock.instant(),
            json(keys, record, record.keySchema(), record.key()),
            json(values, record, record.valueSchema(), record.value()),
            headersJson(record));
    return new Rejected(state, row);
  }

  /**
   * The record's headers as a JSON array of {@code {"key": ..., "value": ...}}, each value Connect
   * JSON with its schema; null when the record has none.
   */
  private String headersJson(SinkRecord record) {
    Headers headers = record.headers();
    if (headers == null || headers.isEmpty()) {
      return null;
    }
    StringJoiner array = new StringJoiner(",", "[", "]");
    for (Header header : headers) {
      String value = json(values, record, header.schema(), header.value());
      array.add(
          "{\"key\":\""
              + new String(JsonStringEncoder.getInstance().quoteAsString(header.key()))
              + "\",\"value\":"
              + (value == null ? "null" : value)
              + "}");
    }
    return array.toString();
  }

  private static String json(
      JsonConverter converter,
      SinkRecord record,
      org.apache.kafka.connect.data.Schema schema,
      Object value) {
    byte[] bytes = converter.fromConnectData(record.topic(), schema, value);
    return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
  }

  /** The row of a rejected record was written to {@code quarantineTable}: counted, and told. */
  private void written(
      SinkRecord record, String table, String quarantineTable, ContractViolation violation) {
    quarantined++;
    if (loggedSinceHandOver.add(table)) {
      LOG.info(
          "Writing the records that break the contract '{}' version {} of table {} to its"
              + " quarantine table {},"
              + " the first of this cycle at topic {} partition {} offset {}: rule {} of field {}"
              + " (the others of the cycle at DEBUG)",
          violation.contractId(),
          violation.contractVersion(),
          table,
          quarantineTable,
          record.originalTopic(),
          record.originalKafkaPartition(),
          record.originalKafkaOffset(),
          violation.rule(),
          violation.field());
    } else if (LOG.isDebugEnabled()) {
      LOG.debug(
          "Quarantined the record at topic {} partition {} offset {} in {}: rule {} of field {}",
          record.originalTopic(),
          record.originalKafkaPartition(),
          record.originalKafkaOffset(),
          quarantineTable,
          violation.rule(),
          violation.field());
    }
  }

  /** A hand-over: the next reject of each table is told at INFO again. */
  void handedOver() {
    loggedSinceHandOver.clear();
  }

  /** Records written to quarantine tables, from this writer's creation. */
  long quarantined() {
    return quarantined;
  }

  /** A rejected record's row and the quarantine table it goes to. */
  private record Rejected(TableState state, Record row) {}
}
