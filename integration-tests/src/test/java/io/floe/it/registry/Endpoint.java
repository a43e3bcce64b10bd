/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.registry;

import java.util.List;

/**
 * The endpoints {@link SchemaRegistryServer} serves, one per method and path template of the
 * Confluent Schema Registry REST API. Tests use them to read request counts, e.g. {@code
 * server.requestCount(Endpoint.SCHEMA_BY_ID)}.
 */
public enum Endpoint {
  /** {@code GET /}: an empty JSON object, handy as a health check. */
  ROOT("GET", "/"),
  /** {@code GET /subjects}: the live subjects ({@code ?deleted=true} adds soft-deleted ones). */
  LIST_SUBJECTS("GET", "/subjects"),
  /** {@code POST /subjects/{subject}}: is this schema registered under the subject? */
  LOOKUP_SCHEMA("POST", "/subjects/{subject}"),
  /** {@code DELETE /subjects/{subject}}: soft delete ({@code ?permanent=true}: hard delete). */
  DELETE_SUBJECT("DELETE", "/subjects/{subject}"),
  /** {@code GET /subjects/{subject}/versions}: the subject's version numbers. */
  LIST_VERSIONS("GET", "/subjects/{subject}/versions"),
  /** {@code POST /subjects/{subject}/versions}: registers a schema, answering its global id. */
  REGISTER_SCHEMA("POST", "/subjects/{subject}/versions"),
  /** {@code GET /subjects/{subject}/versions/{version}}: subject, id, version and schema. */
  GET_VERSION("GET", "/subjects/{subject}/versions/{version}"),
  /** {@code DELETE /subjects/{subject}/versions/{version}}: deletes one version. */
  DELETE_VERSION("DELETE", "/subjects/{subject}/versions/{version}"),
  /** {@code GET /subjects/{subject}/versions/{version}/schema}: the bare schema text. */
  GET_VERSION_SCHEMA("GET", "/subjects/{subject}/versions/{version}/schema"),
  /** {@code GET /schemas/ids/{id}}: the schema with this global id; what deserializers call. */
  SCHEMA_BY_ID("GET", "/schemas/ids/{id}"),
  /** {@code GET /schemas/ids/{id}/schema}: the bare schema text of a global id. */
  SCHEMA_TEXT_BY_ID("GET", "/schemas/ids/{id}/schema"),
  /** {@code GET /schemas/ids/{id}/subjects}: the subjects that use a global id. */
  SUBJECTS_BY_ID("GET", "/schemas/ids/{id}/subjects"),
  /** {@code GET /schemas/ids/{id}/versions}: the subject-version pairs that use a global id. */
  VERSIONS_BY_ID("GET", "/schemas/ids/{id}/versions"),
  /** {@code GET /schemas/types}: the schema types served, here only {@code AVRO}. */
  SCHEMA_TYPES("GET", "/schemas/types"),
  /** {@code GET /config}: the global compatibility level. */
  GET_GLOBAL_CONFIG("GET", "/config"),
  /** {@code PUT /config}: sets the global compatibility level. */
  UPDATE_GLOBAL_CONFIG("PUT", "/config"),
  /** {@code GET /config/{subject}}: the subject's own level ({@code ?defaultToGlobal=true}). */
  GET_SUBJECT_CONFIG("GET", "/config/{subject}"),
  /** {@code PUT /config/{subject}}: sets the subject's own compatibility level. */
  UPDATE_SUBJECT_CONFIG("PUT", "/config/{subject}"),
  /** {@code DELETE /config/{subject}}: drops the subject's own level, reverting to the global. */
  DELETE_SUBJECT_CONFIG("DELETE", "/config/{subject}");

  private final String method;
  private final String path;
  private final List<String> segments;

  Endpoint(String method, String path) {
    this.method = method;
    this.path = path;
    this.segments = Router.segments(path);
  }

  /** The HTTP method, e.g. {@code GET}. */
  public String method() {
    return method;
  }

  /** The path template, e.g. {@code /schemas/ids/{id}}. */
  public String path() {
    return path;
  }

  /** True for the methods that carry a JSON request body. */
  boolean takesBody() {
    return method.equals("POST") || method.equals("PUT");
  }

  /** The template split into segments; {@code {name}} segments are parameters. */
  List<String> segments() {
    return segments;
  }

  @Override
  public String toString() {
    return method + " " + path;
  }
}
