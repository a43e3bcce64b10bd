/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.commit;

/** What a test injects into {@link InMemoryControlTopic}'s clients; by default nothing. */
interface ControlFaults {
  /** A transactional step of a producer. */
  enum Step {
    INIT,
    BEGIN,
    SEND_OFFSETS,
    COMMIT
  }

  /**
   * Called before a transactional step of the producer of {@code transactionalId}; may throw what
   * the step then throws (nothing of the transaction lands). A {@code TimeoutException} before a
   * commit leaves it to land when the commit is asked again.
   */
  default void before(Step step, String transactionalId) {}

  /**
   * Called after a transaction landed; may throw what {@code commitTransaction} then throws,
   * although the transaction is committed (an ambiguous commit).
   */
  default void committed(String transactionalId) {}

  /** How many new records a poll may take at most (a slow fetch delays the rest). */
  default int pollLimit() {
    return Integer.MAX_VALUE;
  }

  /** How many of the records a consumer already had it gets again with this poll. */
  default int redeliveries() {
    return 0;
  }
}
