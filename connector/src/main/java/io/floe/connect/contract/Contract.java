/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.contract;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * A table's data contract: the subset of the Open Data Contract Standard v3 Floe enforces (README,
 * "Data contracts"), parsed once and immutable.
 *
 * @param id the contract's {@code id}
 * @param version the contract's {@code version}
 * @param sha256 the SHA-256 of the contract's text, in hex: what tells two contracts apart
 * @param fields the rules of each field the contract names, in the contract's order
 * @param objectives what the contract expects of each commit of the table: volume and freshness
 */
public record Contract(
    String id, String version, String sha256, List<FieldRule> fields, Objectives objectives) {

  public Contract {
    fields = List.copyOf(fields);
  }

  /** A contract of rows only, without objectives. */
  public Contract(String id, String version, String sha256, List<FieldRule> fields) {
    this(id, version, sha256, fields, Objectives.NONE);
  }

  /**
   * Reads the contract a {@code contract} setting gives: the contract itself (YAML or JSON text,
   * which a setting of more than one line or starting with <code>{</code> is), else the path of a
   * file holding it.
   *
   * @throws IllegalArgumentException saying what to fix, when the file cannot be read or the
   *     contract is not one Floe can enforce
   */
  public static Contract read(String setting) {
    String trimmed = setting.trim();
    if (trimmed.isEmpty()) {
      throw new IllegalArgumentException(
          "the contract is empty: give the path of a contract file, or the contract itself (YAML"
              + " or JSON)");
    }
    if (trimmed.startsWith("{") || trimmed.indexOf('\n') >= 0) {
      return parse(setting);
    }
    String text;
    try {
      text = Files.readString(Path.of(trimmed), StandardCharsets.UTF_8);
    } catch (NoSuchFileException | InvalidPathException e) {
      throw new IllegalArgumentException(
          "no contract file at '"
              + trimmed
              + "': give the path of a file every worker can read, or the contract itself (YAML"
              + " or JSON)",
          e);
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "cannot read the contract file '" + trimmed + "': " + e.getMessage(), e);
    }
    return parse(text);
  }

  /**
   * Parses a contract's text.
   *
   * @throws IllegalArgumentException saying what to fix
   */
  public static Contract parse(String text) {
    return ContractParser.parse(text, sha256(text));
  }

  /** Every rule as one line ({@code amount maximum 1000}), field by field. */
  public List<String> rules() {
    List<String> rules = new ArrayList<>();
    fields.forEach(field -> rules.addAll(field.describe()));
    rules.addAll(objectives.describe());
    return rules;
  }

  /** How the contract is named in messages: its id and version. */
  public String describe() {
    return "'" + id + "' version " + version;
  }

  private static String sha256(String text) {
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      return HexFormat.of().formatHex(digest.digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JVM has no SHA-256", e);
    }
  }
}
