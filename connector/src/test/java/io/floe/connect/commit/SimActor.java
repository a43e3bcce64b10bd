/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.commit;

/**
 * One instance of a task, as the simulated services see their caller: which task, which of its
 * instances, whether it crashed, and whether a newer instance of the same task was started since.
 */
final class SimActor {
  final int taskIndex;
  final int instance;
  boolean crashed;
  boolean replaced;

  SimActor(int taskIndex, int instance) {
    this.taskIndex = taskIndex;
    this.instance = instance;
  }

  @Override
  public String toString() {
    return "task-" + taskIndex + "#" + instance;
  }
}
