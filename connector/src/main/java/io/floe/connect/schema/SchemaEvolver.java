/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.schema;

import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.UpdateSchema;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies schema changes to a table in one {@code UpdateSchema} commit, and survives other tasks
 * evolving the same table at the same time.
 *
 * <p>The changes are computed by a function of the table's schema, so that after a conflict they
 * are computed again on the fresh schema: what another task has added meanwhile is then no longer a
 * change, and what it has added differently shows as incompatible. A commit whose outcome is
 * unknown is treated the same way: the fresh schema shows whether it landed, and a second commit of
 * the same change cannot land twice, because every commit checks the schema it started from.
 */
public final class SchemaEvolver {
  /** How many commits are tried before giving up. */
  static final int MAX_ATTEMPTS = 10;

  private static final Duration FIRST_BACKOFF = Duration.ofMillis(25);
  private static final Duration MAX_BACKOFF = Duration.ofSeconds(1);
  private static final Logger LOG = LoggerFactory.getLogger(SchemaEvolver.class);

  /** Waits between attempts; a seam for tests. */
  @FunctionalInterface
  interface Sleeper {
    void sleep(Duration duration) throws InterruptedException;
  }

  private SchemaEvolver() {}

  /**
   * Evolves {@code table} by the changes {@code diff} computes from its current schema, in one
   * commit; on a conflict with a concurrent change, refreshes the table, computes the changes again
   * and retries, up to {@value #MAX_ATTEMPTS} attempts. Commits nothing when there is nothing to
   * change.
   *
   * @param table the table; it is refreshed after each commit and each conflict
   * @param diff the changes the given schema needs, e.g. {@code s -> SchemaDiff.between(name,
   *     recordSchema, s, options)}; an exception it throws ends the evolution
   * @param describe an exception as the log may show it, the connector's secrets masked
   * @return the table's schema afterwards
   * @throws IncompatibleSchemaException if {@code diff} throws it
   * @throws ConnectException if every attempt conflicted, or the thread was interrupted
   */
  public static Schema evolve(
      Table table,
      Function<Schema, List<SchemaChange>> diff,
      Function<Throwable, String> describe) {
    return evolve(table, diff, describe, duration -> Thread.sleep(duration.toMillis()));
  }

  static Schema evolve(
      Table table,
      Function<Schema, List<SchemaChange>> diff,
      Function<Throwable, String> describe,
      Sleeper sleeper) {
    RuntimeException conflict = null;
    for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      Schema current = table.schema();
      List<SchemaChange> changes = diff.apply(current);
      if (changes.isEmpty()) {
        return current;
      }
      try {
        commit(table, changes);
        table.refresh();
        return table.schema();
      } catch (CommitFailedException | CommitStateUnknownException e) {
        conflict = e;
        LOG.debug(
            "Schema update of table {} failed (attempt {}); refreshing: {}",
            table.name(),
            attempt,
            describe.apply(e));
      }
      if (attempt < MAX_ATTEMPTS) {
        pause(sleeper, backoff(attempt), table);
      }
      table.refresh();
    }
    throw new ConnectException(
        "Table "
            + table.name()
            + ": the schema update failed "
            + MAX_ATTEMPTS
            + " times, each time because the table changed at the same time; check what else is"
            + " changing its schema",
        conflict);
  }

  private static void commit(Table table, List<SchemaChange> changes) {
    UpdateSchema update = table.updateSchema();
    for (SchemaChange change : changes) {
      change.applyTo(update);
    }
    ColumnNames.checkNew(table.name(), table.schema(), update.apply());
    update.commit();
    LOG.info(
        "Evolved the schema of table {}: {}",
        table.name(),
        changes.stream().map(SchemaChange::describe).collect(Collectors.joining("; ")));
  }

  static Duration backoff(int attempt) {
    Duration wait = FIRST_BACKOFF.multipliedBy(1L << Math.min(attempt - 1, 16));
    return wait.compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : wait;
  }

  private static void pause(Sleeper sleeper, Duration duration, Table table) {
    try {
      sleeper.sleep(duration);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ConnectException(
          "Interrupted while retrying the schema update of table " + table.name(), e);
    }
  }
}
