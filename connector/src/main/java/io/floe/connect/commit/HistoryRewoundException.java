/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.commit;

import org.apache.kafka.connect.errors.ConnectException;

/**
 * A table's main branch no longer holds the last commit a connector group made to it: the branch
 * was rolled back past it, or the table replaced. Floe cannot tell which of its rows the table
 * still holds, so it stops rather than guess (ARCHITECTURE.md, "Replays are skipped").
 */
public final class HistoryRewoundException extends ConnectException {
  private static final long serialVersionUID = 1L;

  HistoryRewoundException(String table, String groupId, CommitMarks.Mark last) {
    super(
        "Table "
            + table
            + " no longer holds the last commit of connector group "
            + groupId
            + " (cycle "
            + last.commitId()
            + ", snapshot "
            + last.snapshotId()
            + "): its main branch was rolled back past it, or the table was replaced. Floe does"
            + " not guess which of its rows the table still holds. If that was intended, unset"
            + " table property "
            + CommitMarks.LAST_COMMIT
            + groupId
            + " (ALTER TABLE "
            + table
            + " UNSET TBLPROPERTIES ('"
            + CommitMarks.LAST_COMMIT
            + groupId
            + "')): the connector then goes on from its newest commit left in the table's"
            + " history, and commits again what its control topic still holds after that");
  }
}
