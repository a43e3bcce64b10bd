/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.avro;

/**
 * Stops the Connect task when the schema registry cannot be used, so that no record is skipped or
 * dead-lettered because of an outage or a credential problem.
 *
 * <p>This is an {@link Error}, not an exception, on purpose. Kafka Connect runs converters inside
 * its {@code RetryWithToleranceOperator}, which for the key, value and header converter stages
 * tolerates every {@link Exception}: with {@code errors.tolerance=all} any exception a converter
 * throws, {@code ConnectException} and {@code RetriableException} included, makes the worker skip
 * the record (and send it to the dead-letter queue, if one is set) while the following records are
 * delivered and their offsets committed. A {@code RetriableException} is retried only within {@code
 * errors.retry.timeout} (default 0) and is tolerated after that, and also when the task is
 * stopping. Only a throwable that is not an {@code Exception} escapes the operator and reaches
 * {@code WorkerTask}, which marks the task FAILED; no record after the last one delivered to the
 * task is lost, and a restart reads them again. This holds for Connect 3.9 through 4.4, whose
 * operator maps the converter stages to {@code Exception.class}.
 *
 * <p>Only {@link AvroConverter} throws it, wrapping the {@link SchemaRegistryException} that says
 * what happened.
 */
public final class SchemaRegistryFailure extends Error {
  private static final long serialVersionUID = 1L;

  SchemaRegistryFailure(SchemaRegistryException cause) {
    super(
        "Stopping: the schema registry cannot be used, so records are not converted (and not"
            + " skipped) until it can: "
            + cause.getMessage(),
        cause);
  }
}
