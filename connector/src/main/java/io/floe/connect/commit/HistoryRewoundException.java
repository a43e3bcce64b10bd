/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.commit;

import io.floe.connect.branch.CommitBranch;
import org.apache.kafka.connect.errors.ConnectException;

/**
 * The branch a connector group commits a table to (main, or its commit branch) no longer holds the
 * group's last commit to it: the branch was rolled back past it or removed, or the table replaced.
 * Floe cannot tell which of its rows the table still holds, so it stops rather than guess
 * (ARCHITECTURE.md, "Replays are skipped").
 */
public final class HistoryRewoundException extends ConnectException {
  private static final long serialVersionUID = 1L;

  HistoryRewoundException(
      String table, String groupId, CommitBranch branch, CommitMarks.Mark last) {
    super(
        "Table "
            + table
            + " no longer holds the last commit of connector group "
            + groupId
            + " (cycle "
            + last.commitId()
            + ", snapshot "
            + last.snapshotId()
            + "): "
            + (branch.isMain()
                ? "its main branch was rolled back past it"
                : "its branch "
                    + branch
                    + " was rolled back past it or removed (a missing branch is created again"
                    + " from main's current snapshot)")
            + ", or the table was replaced. Floe does not guess which of its rows the table still"
            + " holds. If that was intended, unset table property "
            + CommitMarks.lastCommitKey(groupId, branch)
            + " (ALTER TABLE "
            + table
            + " UNSET TBLPROPERTIES ('"
            + CommitMarks.lastCommitKey(groupId, branch)
            + "')): the connector then goes on from its newest commit left in the"
            + (branch.isMain() ? " table's" : " branch's")
            + " history, and commits again what its control topic still holds after that");
  }
}
