/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Collection;
import java.util.Map;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTask;

/**
 * Counts the records Connect hands over (already converted) and drops them. Once it has seen {@code
 * bench.expected.records}, it writes the wall-clock millisecond of that moment to {@code
 * bench.report.file} (atomically), which the benchmark waits for.
 */
public class NoopSinkTask extends SinkTask {
  static final String EXPECTED_RECORDS = "bench.expected.records";
  static final String REPORT_FILE = "bench.report.file";

  private long expected;
  private Path report;
  private long seen;
  private long checksum;

  @Override
  public void start(Map<String, String> props) {
    expected = Long.parseLong(props.get(EXPECTED_RECORDS));
    report = Path.of(props.get(REPORT_FILE));
  }

  @Override
  public void put(Collection<SinkRecord> records) {
    for (SinkRecord record : records) {
      // touch the value, so the conversion cannot be optimized away
      checksum += record.value() == null ? 0 : 1;
    }
    long before = seen;
    seen += records.size();
    if (before < expected && seen >= expected) {
      write(System.currentTimeMillis() + " " + seen + " " + checksum);
    }
  }

  private void write(String line) {
    try {
      Path temp = report.resolveSibling(report.getFileName() + ".tmp");
      Files.writeString(temp, line);
      Files.move(temp, report, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void stop() {}

  @Override
  public String version() {
    return "1";
  }
}
