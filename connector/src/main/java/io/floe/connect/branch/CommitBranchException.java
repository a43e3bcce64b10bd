/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.branch;

import org.apache.kafka.connect.errors.ConnectException;

/**
 * A table's commits cannot go to the branch its configuration names (the name is a tag's, say):
 * retrying cannot help, the configuration must change.
 */
public final class CommitBranchException extends ConnectException {
  private static final long serialVersionUID = 1L;

  public CommitBranchException(String message) {
    super(message);
  }

  static CommitBranchException tag(String table, String name) {
    return new CommitBranchException(
        "Table "
            + table
            + ": its ref "
            + name
            + " is a tag, not a branch, and a commit cannot go to a tag. Set"
            + " iceberg.table.<table>.commit-branch (or iceberg.tables.default-commit-branch) to"
            + " a branch of the table, or to a name no ref has: that branch is then created from"
            + " the table's current snapshot by the first commit");
  }
}
