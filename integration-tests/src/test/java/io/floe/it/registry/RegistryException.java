/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.registry;

/**
 * A failed registry call as the Confluent API reports it: an HTTP status and a finer {@code
 * error_code} (e.g. 404 with 40401 for an unknown subject). One factory per documented error.
 */
final class RegistryException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final int status;
  private final int errorCode;

  private RegistryException(int status, int errorCode, String message) {
    super(message);
    this.status = status;
    this.errorCode = errorCode;
  }

  int status() {
    return status;
  }

  int errorCode() {
    return errorCode;
  }

  static RegistryException subjectNotFound(String subject) {
    return new RegistryException(404, 40401, "Subject '" + subject + "' not found.");
  }

  static RegistryException versionNotFound(int version) {
    return new RegistryException(404, 40402, "Version " + version + " not found.");
  }

  static RegistryException schemaNotFound() {
    return new RegistryException(404, 40403, "Schema not found");
  }

  static RegistryException schemaNotFound(int id) {
    return new RegistryException(404, 40403, "Schema " + id + " not found");
  }

  static RegistryException subjectSoftDeleted(String subject) {
    return new RegistryException(
        404,
        40404,
        "Subject '" + subject + "' was soft deleted.Set permanent=true to delete permanently");
  }

  static RegistryException subjectNotSoftDeleted(String subject) {
    return new RegistryException(
        404,
        40405,
        "Subject '" + subject + "' was not deleted first before being permanently deleted");
  }

  static RegistryException versionSoftDeleted(String subject, int version) {
    return new RegistryException(
        404,
        40406,
        "Subject '"
            + subject
            + "' Version "
            + version
            + " was soft deleted.Set permanent=true to delete permanently");
  }

  static RegistryException versionNotSoftDeleted(String subject, int version) {
    return new RegistryException(
        404,
        40407,
        "Subject '"
            + subject
            + "' Version "
            + version
            + " was not deleted first before being permanently deleted");
  }

  static RegistryException subjectCompatibilityNotConfigured(String subject) {
    return new RegistryException(
        404,
        40408,
        "Subject '" + subject + "' does not have subject-level compatibility configured");
  }

  static RegistryException incompatibleSchema(String message) {
    return new RegistryException(409, 409, message);
  }

  static RegistryException invalidSchema(String message) {
    return new RegistryException(422, 42201, message);
  }

  static RegistryException invalidVersion(String version) {
    return new RegistryException(
        422,
        42202,
        "The specified version '"
            + version
            + "' is not a valid version id. Allowed values are between [1, 2^31-1] and the"
            + " string \"latest\"");
  }

  static RegistryException invalidCompatibilityLevel() {
    return new RegistryException(
        422,
        42203,
        "Invalid compatibility level. Valid values are none, backward, forward, full,"
            + " backward_transitive, forward_transitive, and full_transitive");
  }

  /** A request that cannot be read: a body that is not JSON or of the wrong shape, a bad URL. */
  static RegistryException badRequest(String message) {
    return new RegistryException(400, 400, message);
  }

  /** A POST or PUT without the body the endpoint requires. */
  static RegistryException missingBody() {
    return new RegistryException(422, 422, "Request body is missing");
  }

  static RegistryException unauthorized() {
    return new RegistryException(401, 401, "Unauthorized");
  }

  static RegistryException notFound() {
    return new RegistryException(404, 404, "HTTP 404 Not Found");
  }

  static RegistryException methodNotAllowed() {
    return new RegistryException(405, 405, "HTTP 405 Method Not Allowed");
  }

  static RegistryException unsupportedMediaType() {
    return new RegistryException(415, 415, "HTTP 415 Unsupported Media Type");
  }

  static RegistryException internal(String message) {
    return new RegistryException(500, 500, message);
  }
}
