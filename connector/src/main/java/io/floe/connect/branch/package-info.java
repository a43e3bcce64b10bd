/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The branch a table's commits go to ({@link io.floe.connect.branch.CommitBranch}): where the
 * connector's commits, the upsert commit's reads and the recovery of its position all find the
 * branch's newest snapshot, so that they agree on it, also while the branch does not exist yet.
 */
package io.floe.connect.branch;
