/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What each endpoint does: reads its parameters and body, asks the store or the compatibility
 * config, and shapes the answer as the Confluent API does. Knows nothing of HTTP transport.
 */
final class RegistryApi {
  private final SchemaStore store;
  private final CompatibilityConfig config;

  RegistryApi(SchemaStore store, CompatibilityConfig config) {
    this.store = store;
    this.config = config;
  }

  /**
   * Answers one request.
   *
   * @param path the decoded path parameters of the endpoint's template
   * @param query the decoded query parameters
   * @param body the request body, empty for methods without one
   * @throws RegistryException for every documented error
   */
  Reply answer(
      Endpoint endpoint, Map<String, String> path, Map<String, String> query, byte[] body) {
    boolean deleted = Router.flag(query, "deleted");
    boolean permanent = Router.flag(query, "permanent");
    String subject = path.get("subject");
    return switch (endpoint) {
      case ROOT -> Reply.json(Map.of());
      case LIST_SUBJECTS -> Reply.json(store.subjects(deleted));
      case LOOKUP_SCHEMA -> Reply.json(store.lookup(subject, schemaOf(body).canonical(), deleted));
      case DELETE_SUBJECT -> Reply.json(store.deleteSubject(subject, permanent));
      case LIST_VERSIONS -> Reply.json(store.versions(subject, deleted));
      case REGISTER_SCHEMA -> Reply.json(Map.of("id", store.register(subject, schemaOf(body))));
      case GET_VERSION -> Reply.json(store.version(subject, version(path), deleted));
      case DELETE_VERSION -> Reply.json(store.deleteVersion(subject, version(path), permanent));
      case GET_VERSION_SCHEMA ->
          Reply.text(store.version(subject, version(path), deleted).schema());
      case SCHEMA_BY_ID -> Reply.json(Map.of("schema", store.schema(id(path))));
      case SCHEMA_TEXT_BY_ID -> Reply.text(store.schema(id(path)));
      case SUBJECTS_BY_ID -> Reply.json(store.subjectsOf(id(path), deleted));
      case VERSIONS_BY_ID -> Reply.json(store.usesOf(id(path), deleted));
      case SCHEMA_TYPES -> Reply.json(List.of(AvroSchemas.TYPE));
      case GET_GLOBAL_CONFIG -> level(config.global());
      case UPDATE_GLOBAL_CONFIG -> updateLevel(null, body);
      case GET_SUBJECT_CONFIG -> subjectLevel(subject, Router.flag(query, "defaultToGlobal"));
      case UPDATE_SUBJECT_CONFIG -> updateLevel(subject, body);
      case DELETE_SUBJECT_CONFIG ->
          level(
              config
                  .removeSubject(subject)
                  .orElseThrow(() -> RegistryException.subjectNotFound(subject)));
    };
  }

  /** The schema of a register or lookup body: {@code schema}, {@code schemaType}, references. */
  private static AvroSchemas.Parsed schemaOf(byte[] body) {
    ObjectNode request = Json.readObject(body);
    String type = Json.text(request, "schemaType").orElse(AvroSchemas.TYPE);
    if (!type.toUpperCase(Locale.ROOT).equals(AvroSchemas.TYPE)) {
      throw RegistryException.invalidSchema("Invalid schema type " + type);
    }
    JsonNode references = request.get("references");
    if (references != null && !references.isNull() && !references.isEmpty()) {
      throw RegistryException.invalidSchema(
          "Invalid schema, details: schema references are not supported by this registry");
    }
    return AvroSchemas.parse(Json.text(request, "schema").orElse(null));
  }

  private static VersionRef version(Map<String, String> path) {
    return VersionRef.parse(path.get("version"));
  }

  /** A global id; like the Confluent server, a non-numeric id is an unknown path. */
  private static int id(Map<String, String> path) {
    try {
      return Integer.parseInt(path.get("id"));
    } catch (NumberFormatException e) {
      throw RegistryException.notFound();
    }
  }

  private Reply subjectLevel(String subject, boolean defaultToGlobal) {
    CompatibilityLevel level =
        defaultToGlobal
            ? config.effective(subject)
            : config
                .subject(subject)
                .orElseThrow(() -> RegistryException.subjectCompatibilityNotConfigured(subject));
    return level(level);
  }

  private static Reply level(CompatibilityLevel level) {
    return Reply.json(Map.of("compatibilityLevel", level.name()));
  }

  /** Sets the global level (subject null) or a subject's; answers the request as given. */
  private Reply updateLevel(String subject, byte[] body) {
    String given = Json.text(Json.readObject(body), "compatibility").orElse(null);
    CompatibilityLevel level =
        CompatibilityLevel.forName(given).orElseThrow(RegistryException::invalidCompatibilityLevel);
    if (subject == null) {
      config.setGlobal(level);
    } else {
      config.setSubject(subject, level);
    }
    return Reply.json(Map.of("compatibility", given));
  }
}
