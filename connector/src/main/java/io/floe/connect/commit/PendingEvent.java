/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.commit;

import io.floe.connect.control.DataWritten;

/**
 * A worker's {@link DataWritten} waiting for its commit, with where it is on the control topic.
 *
 * @param controlPartition the control-topic partition it was read from
 * @param controlOffset its offset there
 * @param event the event
 */
record PendingEvent(int controlPartition, long controlOffset, DataWritten event) {}
