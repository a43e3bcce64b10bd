/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.avro;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.apache.avro.Schema;
import org.apache.avro.SchemaParseException;
import org.apache.kafka.connect.errors.DataException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A client of the Confluent Schema Registry REST API (as also served by Apicurio's ccompat API,
 * Karapace and Redpanda), for Avro schemas: fetches writer schemas by id, registers and looks up
 * schemas under subjects, and reads a subject's latest version. Schemas by id and latest versions
 * are cached, so each id costs one request per client, however many records use it. Thread-safe.
 *
 * <p>Errors: an id, subject or schema the registry does not know, and a schema it rejects, are
 * {@link DataException}s (about the record); an unusable registry is a {@link
 * SchemaRegistryException}.
 */
public final class SchemaRegistryClient {
  private static final Logger LOG = LoggerFactory.getLogger(SchemaRegistryClient.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int MAX_REFERENCE_DEPTH = 32;

  /** A schema with its global id, as registered under a subject. */
  public record RegisteredSchema(int id, Schema schema) {}

  private final RegistryTransport transport;
  private final BoundedCache<Integer, Schema> byId;
  private final BoundedCache<String, RegisteredSchema> latest;

  SchemaRegistryClient(RegistryTransport transport, int cacheSize) {
    this.transport = transport;
    this.byId = new BoundedCache<>(cacheSize);
    this.latest = new BoundedCache<>(cacheSize);
  }

  /** A client for the configured registry. */
  public static SchemaRegistryClient create(AvroConverterConfig config) {
    return create(config, duration -> Thread.sleep(duration.toMillis()));
  }

  /** A client for the configured registry that waits between retries with {@code sleeper}. */
  static SchemaRegistryClient create(
      AvroConverterConfig config, RegistryTransport.Sleeper sleeper) {
    RegistryTransport transport =
        new RegistryTransport(
            config.endpoints(),
            RegistryTransport.newHttpClient(config),
            config.requestTimeout(),
            config.retryPolicy(),
            sleeper);
    return new SchemaRegistryClient(transport, config.schemaCacheSize());
  }

  /**
   * The schema with this global id ({@code GET /schemas/ids/{id}}), with its references resolved.
   *
   * @throws DataException when the registry has no such id, or it is not a valid Avro schema
   */
  public Schema schemaById(int id) {
    return byId.get(id, this::fetchById);
  }

  private Schema fetchById(int id) {
    RegistryTransport.Response response = transport.get("/schemas/ids/" + id);
    if (response.status() == 404 && errorCode(response) == 40403) {
      throw new DataException("Schema id " + id + " not found in registry " + response.endpoint());
    }
    JsonNode answer = success(response, "schema id " + id);
    Schema schema = parse(answer, "schema id " + id, response);
    LOG.info(
        "Fetched writer schema id {} ({}) from schema registry {}",
        id,
        schema.getFullName(),
        response.endpoint());
    return schema;
  }

  /**
   * Registers a schema under a subject ({@code POST /subjects/{subject}/versions}); returns its
   * global id, the existing one when it is registered already.
   *
   * @throws DataException when the registry rejects the schema (invalid, or incompatible with the
   *     subject's compatibility rule)
   */
  public int register(String subject, Schema schema) {
    RegistryTransport.Response response =
        transport.post("/subjects/" + encode(subject) + "/versions", body(schema));
    int id = id(success(response, "registering under subject " + subject), response);
    LOG.info(
        "Registered schema {} under subject {} in schema registry {}: id {}",
        schema.getFullName(),
        subject,
        response.endpoint(),
        id);
    return id;
  }

  /**
   * The global id of a schema already registered under a subject ({@code POST
   * /subjects/{subject}}).
   *
   * @throws DataException when the subject or the schema under it is not registered
   */
  public int lookup(String subject, Schema schema) {
    RegistryTransport.Response response =
        transport.post("/subjects/" + encode(subject), body(schema));
    if (response.status() == 404 && isNotFound(errorCode(response))) {
      throw new DataException(
          "Schema "
              + schema.getFullName()
              + " is not registered under subject "
              + subject
              + " in registry "
              + response.endpoint()
              + "; register it, or set auto.register.schemas=true");
    }
    int id = id(success(response, "looking up under subject " + subject), response);
    LOG.info("Schema {} is id {} under subject {}", schema.getFullName(), id, subject);
    return id;
  }

  /**
   * The latest version under a subject ({@code GET /subjects/{subject}/versions/latest}), fetched
   * once per subject and client.
   *
   * @throws DataException when the subject does not exist
   */
  public RegisteredSchema latest(String subject) {
    return latest.get(subject, this::fetchLatest);
  }

  private RegisteredSchema fetchLatest(String subject) {
    RegistryTransport.Response response =
        transport.get("/subjects/" + encode(subject) + "/versions/latest");
    if (response.status() == 404 && isNotFound(errorCode(response))) {
      throw new DataException(
          "Subject " + subject + " has no schema in registry " + response.endpoint());
    }
    JsonNode answer = success(response, "the latest version of subject " + subject);
    Schema schema = parse(answer, "the latest version of subject " + subject, response);
    int id = id(answer, response);
    LOG.info(
        "Latest schema of subject {} in schema registry {} is id {} (version {})",
        subject,
        response.endpoint(),
        id,
        answer.path("version").asText("?"));
    return new RegisteredSchema(id, schema);
  }

  /**
   * The compatibility level that applies to a subject: the subject's own, else the registry's
   * global one ({@code GET /config/{subject}?defaultToGlobal=true}; {@code GET /config} when the
   * registry answers 404 to that, as registries that have no level for the subject and do not read
   * the parameter do). Not cached.
   *
   * @return the level as the registry names it, which may be one Floe does not know
   * @throws SchemaRegistryException when the registry cannot be used or answers without a level
   */
  public String compatibilityLevel(String subject) {
    String what = "the compatibility level of subject " + subject;
    RegistryTransport.Response response =
        transport.get("/config/" + encode(subject) + "?defaultToGlobal=true");
    if (response.status() == 404) {
      response = transport.get("/config");
    }
    JsonNode answer = success(response, what);
    // Confluent answers compatibilityLevel; some registries and versions say compatibility
    JsonNode level = answer.path("compatibilityLevel");
    if (!level.isTextual()) {
      level = answer.path("compatibility");
    }
    if (!level.isTextual()) {
      throw new SchemaRegistryException(
          "The schema registry at " + response.endpoint() + " answered " + what + " without one");
    }
    return level.asText();
  }

  /** Parses a schema answer, after its references, into one parser. */
  private Schema parse(JsonNode answer, String what, RegistryTransport.Response response) {
    String type = answer.path("schemaType").asText("AVRO");
    if (!"AVRO".equalsIgnoreCase(type)) {
      throw new DataException(
          "The registry " + response.endpoint() + " holds " + what + " as " + type + ", not Avro");
    }
    Schema.Parser parser = new Schema.Parser().setValidateDefaults(false);
    try {
      addReferences(answer.path("references"), parser, new HashSet<>(), 0);
      return parser.parse(answer.path("schema").asText());
    } catch (SchemaParseException e) {
      throw new DataException(
          "The registry "
              + response.endpoint()
              + " holds "
              + what
              + ", which is not a valid Avro schema: "
              + e.getMessage(),
          e);
    }
  }

  /** Parses the schemas a schema refers to, depth first, so their names are known to it. */
  private void addReferences(
      JsonNode references, Schema.Parser parser, Set<String> seen, int depth) {
    if (!references.isArray() || references.isEmpty()) {
      return;
    }
    if (depth > MAX_REFERENCE_DEPTH) {
      throw new DataException("Schema references nest deeper than " + MAX_REFERENCE_DEPTH);
    }
    for (JsonNode reference : references) {
      String subject = reference.path("subject").asText();
      String version = reference.path("version").asText("latest");
      if (!seen.add(subject + "/" + version)) {
        continue;
      }
      String what = "reference " + subject + " version " + version;
      RegistryTransport.Response response =
          transport.get("/subjects/" + encode(subject) + "/versions/" + encode(version));
      if (response.status() == 404 && isNotFound(errorCode(response))) {
        throw new DataException(
            "The schema refers to " + what + ", not found in registry " + response.endpoint());
      }
      JsonNode answer = success(response, what);
      addReferences(answer.path("references"), parser, seen, depth + 1);
      parser.parse(answer.path("schema").asText());
    }
  }

  /**
   * The JSON of a 2xx answer.
   *
   * @throws DataException for the registry's answers about the schema itself (404 with a not-found
   *     code, 409 incompatible, 422 invalid)
   * @throws SchemaRegistryException for anything else
   */
  private static JsonNode success(RegistryTransport.Response response, String what) {
    int status = response.status();
    if (response.ok()) {
      try {
        return JSON.readTree(response.body());
      } catch (JsonProcessingException e) {
        throw new SchemaRegistryException(
            "The schema registry at "
                + response.endpoint()
                + " answered "
                + what
                + " with something that is not JSON; is "
                + AvroConverterConfig.SCHEMA_REGISTRY_URL
                + " the registry's base URL?");
      }
    }
    int code = errorCode(response);
    String reason = status + (code > 0 ? ", error code " + code : "") + ": " + message(response);
    if ((status == 404 && isNotFound(code)) || status == 409 || status == 422) {
      throw new DataException(
          "The schema registry at "
              + response.endpoint()
              + " refused "
              + what
              + " ("
              + reason
              + ")");
    }
    throw new SchemaRegistryException(
        "Unexpected answer from the schema registry at "
            + response.endpoint()
            + " to "
            + what
            + " (HTTP "
            + reason
            + "); is "
            + AvroConverterConfig.SCHEMA_REGISTRY_URL
            + " the registry's base URL?");
  }

  private static int id(JsonNode answer, RegistryTransport.Response response) {
    JsonNode id = answer.path("id");
    if (!id.canConvertToInt()) {
      throw new SchemaRegistryException(
          "The schema registry at " + response.endpoint() + " answered without a schema id");
    }
    return id.intValue();
  }

  /** 40401 subject, 40402 version, 40403 schema not found. */
  private static boolean isNotFound(int code) {
    return code == 40401 || code == 40402 || code == 40403;
  }

  private static int errorCode(RegistryTransport.Response response) {
    return error(response).path("error_code").asInt(-1);
  }

  private static String message(RegistryTransport.Response response) {
    JsonNode message = error(response).path("message");
    return message.isTextual() ? message.asText() : "(no message)";
  }

  private static JsonNode error(RegistryTransport.Response response) {
    try {
      JsonNode node = JSON.readTree(response.body());
      return node == null ? JSON.missingNode() : node;
    } catch (JsonProcessingException e) {
      return JSON.missingNode();
    }
  }

  private static String body(Schema schema) {
    try {
      return JSON.writeValueAsString(Map.of("schema", schema.toString()));
    } catch (JsonProcessingException e) {
      throw new DataException("Cannot write the registry request for " + schema.getFullName(), e);
    }
  }

  /** A path segment: percent-encoded, with spaces as {@code %20} rather than {@code +}. */
  private static String encode(String segment) {
    return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
  }
}
