/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.write;

/**
 * How far a task got in one source partition since its last hand-over.
 *
 * @param firstOffset the offset of the first record processed since the last hand-over: where to
 *     rewind to if that hand-over never happens
 * @param nextOffset the offset after the last record processed: the consumer offset to commit
 * @param maxTimestampMs the largest record timestamp seen, or {@link OffsetRange#NO_TIMESTAMP}
 */
public record SourcePosition(long firstOffset, long nextOffset, long maxTimestampMs) {}
