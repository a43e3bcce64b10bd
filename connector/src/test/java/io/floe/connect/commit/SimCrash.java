/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.commit;

/**
 * A simulated process crash, thrown where the process dies. It is an {@link Error} so that the code
 * under test does not take it for a failure it can handle; and once a process crashed, every call
 * it makes to a simulated service throws it again, so nothing after the crash point has an effect.
 */
final class SimCrash extends Error {
  private static final long serialVersionUID = 1L;

  SimCrash(String where) {
    super(where, null, false, false);
  }
}
