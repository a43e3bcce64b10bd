/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.eos;

import org.junit.jupiter.api.Test;

/**
 * Exactly once when the worker running the coordinator dies or freezes inside what the coordinator
 * does alone: a table commit (before and after it landed, and after another engine expired it) and
 * a compaction (inside and after it).
 */
class CoordinatorCrashIT extends ExactlyOnceStack {
  @Test
  void killingTheCoordinatorsWorkerInsideATableCommitLosesAndDuplicatesNothing() throws Exception {
    killTheCoordinatorsWorkerInsideACommit("coordkill", false);
  }

  @Test
  void
      killingTheCoordinatorsWorkerAfterItsCommitLandedAndAnotherEngineExpiredItLosesAndDuplicatesNothing()
          throws Exception {
    killTheCoordinatorsWorkerInsideACommit("coordkilled", true);
  }

  @Test
  void killingTheCoordinatorsWorkerInsideACompactionLosesAndDuplicatesNothingAndLeavesOrphans()
      throws Exception {
    killTheCoordinatorsWorkerInsideACompaction("compkill", false);
  }

  @Test
  void killingTheCoordinatorsWorkerAfterItsCompactionLandedLosesAndDuplicatesNothing()
      throws Exception {
    killTheCoordinatorsWorkerInsideACompaction("compkilled", true);
  }

  @Test
  void theCoordinatorsWorkerFrozenPastItsSessionTimeoutInsideACommitIsFencedAndLosesNothing()
      throws Exception {
    frozenPastItsSessionTimeout("zombie", true);
  }
}
