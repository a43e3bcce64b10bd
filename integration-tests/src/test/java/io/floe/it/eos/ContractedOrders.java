/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.eos;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.floe.it.stack.StackDirs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;

/**
 * Orders under a data contract, for the exactly-once tests of the quarantine table: {@link
 * OrderEvents} with a quantity, an e-mail and a status, of which 1 in 101 (every partition gets
 * some) each break one of four rules of the contract in turn (minimum, maximum, pattern, enum).
 * Both tables of a {@link TwoTableConnector} take the contract and send what it refuses to one
 * shared quarantine table.
 */
final class ContractedOrders {
  private static final String SCHEMA =
      "{\"type\":\"struct\",\"name\":\"order\",\"optional\":false,\"fields\":["
          + "{\"field\":\"id\",\"type\":\"int64\",\"optional\":false},"
          + "{\"field\":\"kind\",\"type\":\"string\",\"optional\":false},"
          + "{\"field\":\"ts\",\"type\":\"int64\",\"optional\":false,"
          + "\"name\":\"org.apache.kafka.connect.data.Timestamp\",\"version\":1},"
          + "{\"field\":\"qty\",\"type\":\"int32\",\"optional\":true},"
          + "{\"field\":\"email\",\"type\":\"string\",\"optional\":true},"
          + "{\"field\":\"status\",\"type\":\"string\",\"optional\":true}]}";

  private static final String CONTRACT =
      """
      apiVersion: v3.0.2
      kind: DataContract
      id: order-stream
      version: 0.3.0
      status: draft
      schema:
        - name: order
          logicalType: object
          properties:
            - name: id
              logicalType: integer
              required: true
            - name: qty
              logicalType: integer
              logicalTypeOptions: {minimum: 1, maximum: 1000}
            - name: email
              logicalType: string
              logicalTypeOptions: {pattern: "^[^@]+@[^@]+$"}
            - name: status
              logicalType: string
              enum: [{value: new}, {value: paid}, {value: shipped}]
      """;

  /** The rules broken in turn, one breaking record after the other. */
  private static final List<String> RULES = List.of("minimum", "maximum", "pattern", "enum");

  private ContractedOrders() {}

  /**
   * Whether the record of {@code id} breaks the contract: 1 in 101, so that ids sent round-robin
   * over a few partitions break it on each of them.
   */
  static boolean breaks(long id) {
    return id % 101 == 37;
  }

  /** The rule the record of {@code id} breaks, null if none. */
  static String ruleBroken(long id) {
    return breaks(id) ? RULES.get((int) (id / 101 % RULES.size())) : null;
  }

  /** The value of the record of {@code id}, in the JSON envelope of {@code schemas.enable=true}. */
  static String value(long id, long timestampMs) {
    String rule = ruleBroken(id);
    long qty =
        "minimum".equals(rule) ? 0 : "maximum".equals(rule) ? 5000 : 1 + id % 1000; // 1 to 1000
    String email = "pattern".equals(rule) ? "no-at-sign-" + id : "u" + id + "@example.org";
    String status =
        "enum".equals(rule) ? "lost" : List.of("new", "paid", "shipped").get((int) (id % 3));
    return "{\"schema\":"
        + SCHEMA
        + ",\"payload\":{\"id\":"
        + id
        + ",\"kind\":\""
        + (id % 2 == 0 ? "a" : "b")
        + "\",\"ts\":"
        + timestampMs
        + ",\"qty\":"
        + qty
        + ",\"email\":\""
        + email
        + "\",\"status\":\""
        + status
        + "\"}}";
  }

  /**
   * Puts the contract on both tables of connector {@code name}, with their rejects going to the
   * quarantine table it returns.
   */
  static String enforce(Map<String, String> config, String name) {
    Path contract = StackDirs.newServiceDir("contracts").resolve("orders.odcs.yaml");
    try {
      Files.writeString(contract, CONTRACT);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    String quarantine = "db." + name + "__rejected";
    for (String table : List.of("db." + name + "_a", "db." + name + "_b")) {
      config.put("iceberg.table." + table + ".contract", contract.toString());
      config.put("iceberg.table." + table + ".contract-rejects", "table");
      config.put("iceberg.table." + table + ".contract-rejects-table", quarantine);
    }
    return quarantine;
  }

  /**
   * Asserts that the quarantine table holds each breaking record of ids {@code [0, sent)} of {@code
   * topic} once, at its origin (ids go round-robin over {@code partitions}, so id {@code i} is at
   * offset {@code i / partitions} of partition {@code i % partitions}), with the rule it broke; and
   * returns their origins.
   */
  static Set<TableOracle.Origin> assertQuarantinedOnce(
      Catalog catalog, String quarantine, String topic, int partitions, long sent) {
    ObjectMapper json = new ObjectMapper();
    Map<Long, String> rules = new TreeMap<>();
    Set<TableOracle.Origin> origins = new HashSet<>();
    try (CloseableIterable<Record> rows =
        IcebergGenerics.read(catalog.loadTable(TableIdentifier.parse(quarantine))).build()) {
      for (Record row : rows) {
        long id = json.readTree((String) row.getField("value_json")).at("/payload/id").asLong();
        TableOracle.Origin origin =
            new TableOracle.Origin(
                (String) row.getField("source_topic"),
                (Integer) row.getField("source_partition"),
                (Long) row.getField("source_offset"));
        assertThat(origin)
            .as("origin of quarantined id %d", id)
            .isEqualTo(new TableOracle.Origin(topic, (int) (id % partitions), id / partitions));
        assertThat(origins.add(origin)).as("%s quarantined once", origin).isTrue();
        assertThat(rules.put(id, (String) row.getField("rule")))
            .as("id %d quarantined once", id)
            .isNull();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Map<Long, String> expected = new TreeMap<>();
    for (long id = 0; id < sent; id++) {
      if (breaks(id)) {
        expected.put(id, ruleBroken(id));
      }
    }
    assertThat(rules).as("the quarantined ids and their rules").isEqualTo(expected);
    return origins;
  }

  /** The number of records of ids {@code [0, sent)} that break the contract. */
  static long breaking(long sent) {
    long count = 0;
    for (long id = 0; id < sent; id++) {
      count += breaks(id) ? 1 : 0;
    }
    return count;
  }
}
