/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.registry;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.Optional;

/** Reading request bodies and writing response bodies, with the registry's error codes. */
final class Json {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private Json() {}

  static byte[] write(Object value) {
    try {
      return MAPPER.writeValueAsBytes(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("Cannot write a registry response as JSON", e);
    }
  }

  /**
   * The body as a JSON object.
   *
   * @throws RegistryException 422 when the body is empty, 400 when it is not a JSON object
   */
  static ObjectNode readObject(byte[] body) {
    JsonNode node;
    try {
      node = MAPPER.readTree(body);
    } catch (JsonProcessingException e) {
      throw RegistryException.badRequest(e.getOriginalMessage());
    } catch (IOException e) {
      throw RegistryException.badRequest("Unreadable request body: " + e.getMessage());
    }
    if (node == null || node.isMissingNode()) {
      throw RegistryException.missingBody();
    }
    if (!node.isObject()) {
      throw RegistryException.badRequest(
          "Cannot deserialize value from " + node.getNodeType() + ": a JSON object is expected");
    }
    return (ObjectNode) node;
  }

  /**
   * A string field: absent or null is empty, numbers and booleans read as their text.
   *
   * @throws RegistryException 400 when the field holds an object or an array
   */
  static Optional<String> text(ObjectNode object, String field) {
    JsonNode value = object.get(field);
    if (value == null || value.isNull()) {
      return Optional.empty();
    }
    if (value.isContainerNode()) {
      throw RegistryException.badRequest(
          "Cannot deserialize value of type `java.lang.String` from "
              + value.getNodeType()
              + " (field '"
              + field
              + "')");
    }
    return Optional.of(value.asText());
  }
}
