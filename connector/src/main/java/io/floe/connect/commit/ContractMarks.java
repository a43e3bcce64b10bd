/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.commit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.floe.connect.contract.Contract;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotUpdate;
import org.apache.iceberg.util.JsonUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lineage of a table's contract in the summary of every snapshot the coordinator commits to it:
 *
 * <ul>
 *   <li>{@code floe.contract.id}, {@code floe.contract.version}: the contract's;
 *   <li>{@code floe.contract.sha256}: the SHA-256 of the contract's text, in hex;
 *   <li>{@code floe.contract.rules}: its rules, a JSON array of one text per rule ({@code "amount
 *       maximum 1000"}), left out when longer than {@link #MAX_RULES_CHARS}.
 * </ul>
 *
 * <p>A table's contract that differs from the one in the table's last commit of this connector is
 * logged once per coordinator, with the rules added and removed.
 */
final class ContractMarks {
  static final String ID = "floe.contract.id";
  static final String VERSION = "floe.contract.version";
  static final String SHA256 = "floe.contract.sha256";
  static final String RULES = "floe.contract.rules";

  /** The longest rule list a summary holds. */
  static final int MAX_RULES_CHARS = 4096;

  private static final Logger LOG = LoggerFactory.getLogger(ContractMarks.class);

  /** By table: the contract hash told of already ("" for none). */
  private final Map<String, String> told = new HashMap<>();

  /**
   * Sets the contract's marks on a commit of {@code table}, and tells once how it differs from the
   * one of {@code previous}, the table's last commit of this connector (null if it has none, or
   * none left).
   */
  void mark(
      SnapshotUpdate<?> update, String table, Optional<Contract> contract, Snapshot previous) {
    contract.ifPresent(
        c -> {
          update.set(ID, c.id());
          update.set(VERSION, c.version());
          update.set(SHA256, c.sha256());
          String rules = rules(c);
          if (rules.length() <= MAX_RULES_CHARS) {
            update.set(RULES, rules);
          }
        });
    String hash = contract.map(Contract::sha256).orElse("");
    if (hash.equals(told.put(table, hash))) {
      return;
    }
    Map<String, String> before =
        previous == null || previous.summary() == null ? Map.of() : previous.summary();
    String previousHash = before.getOrDefault(SHA256, "");
    if (previousHash.equals(hash)) {
      return;
    }
    if (contract.isEmpty()) {
      LOG.info(
          "Table {}: its contract '{}' version {} (sha256 {}) is no longer enforced, as the table"
              + " has none now",
          table,
          before.get(ID),
          before.get(VERSION),
          previousHash);
      return;
    }
    Contract now = contract.get();
    if (previousHash.isEmpty()) {
      LOG.info(
          "Table {}: contract {} (sha256 {}) is enforced from this commit on: {}",
          table,
          now.describe(),
          hash,
          now.rules());
      return;
    }
    List<String> was = parseRules(before.get(RULES));
    String change;
    if (was == null) {
      change = "the earlier rules are not recorded; the rules now: " + now.rules();
    } else {
      Set<String> added = new LinkedHashSet<>(now.rules());
      added.removeAll(was);
      Set<String> removed = new LinkedHashSet<>(was);
      removed.removeAll(now.rules());
      change =
          added.isEmpty() && removed.isEmpty()
              ? "the same rules, written differently"
              : "rules added " + added + ", rules removed " + removed;
    }
    LOG.info(
        "Table {}: the contract changed from '{}' version {} (sha256 {}) to {} (sha256 {}): {}",
        table,
        before.get(ID),
        before.get(VERSION),
        previousHash,
        now.describe(),
        hash,
        change);
  }

  private static String rules(Contract contract) {
    ArrayNode array = JsonUtil.mapper().createArrayNode();
    contract.rules().forEach(array::add);
    return array.toString();
  }

  /** The rules a summary recorded, or null if it recorded none or they cannot be read. */
  private static List<String> parseRules(String json) {
    if (json == null) {
      return null;
    }
    try {
      JsonNode node = JsonUtil.mapper().readTree(json);
      List<String> rules = new ArrayList<>();
      node.forEach(rule -> rules.add(rule.asText()));
      return rules;
    } catch (JsonProcessingException e) {
      return null;
    }
  }
}
