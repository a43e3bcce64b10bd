/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.contract;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * What a contract expects of each commit of its table rather than of each row: the rows one commit
 * appends (an ODCS {@code rowCount} quality rule of the table's object, read per commit) and the
 * age of the newest committed record (an ODCS {@code latency} service-level property, measured on
 * the table's event-time watermark).
 *
 * @param minRows the fewest rows a commit may append, if bounded below
 * @param maxRows the most rows a commit may append, if bounded above
 * @param latencyMs the oldest the table's watermark may be after a commit, in ms, if bounded
 */
public record Objectives(OptionalLong minRows, OptionalLong maxRows, OptionalLong latencyMs) {
  /** A contract without objectives. */
  public static final Objectives NONE =
      new Objectives(OptionalLong.empty(), OptionalLong.empty(), OptionalLong.empty());

  /** Whether a commit appending {@code rows} rows is within the volume objective. */
  public boolean volumeHolds(long rows) {
    return (minRows.isEmpty() || rows >= minRows.getAsLong())
        && (maxRows.isEmpty() || rows <= maxRows.getAsLong());
  }

  /** Whether the contract sets a volume objective. */
  public boolean hasVolume() {
    return minRows.isPresent() || maxRows.isPresent();
  }

  /** The volume objective as one text: {@code rows per commit between 10 and 1000}. */
  public String describeVolume() {
    if (minRows.isPresent() && maxRows.isPresent()) {
      return "rows per commit between " + minRows.getAsLong() + " and " + maxRows.getAsLong();
    }
    return minRows.isPresent()
        ? "rows per commit at least " + minRows.getAsLong()
        : "rows per commit at most " + maxRows.getAsLong();
  }

  /** The freshness objective as one text: {@code latency at most 60000 ms}. */
  public String describeLatency() {
    return "latency at most " + latencyMs.getAsLong() + " ms";
  }

  /** Each objective as one line, for the contract's list of rules. */
  List<String> describe() {
    List<String> lines = new ArrayList<>();
    if (hasVolume()) {
      lines.add("table " + describeVolume());
    }
    if (latencyMs.isPresent()) {
      lines.add("table " + describeLatency());
    }
    return lines;
  }
}
