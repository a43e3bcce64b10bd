/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.registry;

import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;

/** Parses submitted Avro schemas, as a registry must before storing or comparing them. */
final class AvroSchemas {
  static final String TYPE = "AVRO";

  private AvroSchemas() {}

  /** An Avro schema with the canonical text that identifies it in the registry. */
  record Parsed(Schema schema, String canonical) {}

  /**
   * Parses the text with default values validated, as a registry does for new schemas. The
   * canonical text is Avro's own compact rendering: whitespace and attribute order vanish, while
   * docs, defaults and aliases, which matter to readers, are kept.
   *
   * @throws RegistryException 42201 when the text is empty or not a valid Avro schema
   */
  static Parsed parse(String text) {
    if (text == null || text.isBlank()) {
      throw RegistryException.invalidSchema("Invalid schema, details: Empty schema");
    }
    Schema schema;
    try {
      schema = new Schema.Parser().parse(text);
    } catch (AvroRuntimeException | IllegalArgumentException e) {
      throw RegistryException.invalidSchema("Invalid schema, details: " + e.getMessage());
    }
    return new Parsed(schema, schema.toString());
  }
}
