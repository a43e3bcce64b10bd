/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * What an Avro fast path could save, {@link AvroPathBench} in a child JVM of its own. It prints the
 * figures; the assertion checks only that the run completed.
 */
@Tag("bench")
class AvroPathBenchIT {
  @Test
  void whatAnAvroFastPathCouldSave() throws Exception {
    WriterBenchIT.Child child =
        WriterBenchIT.run(
            "avro-path",
            List.of("-Xmx1g"),
            AvroPathBench.class,
            System.getProperty("bench.records", "200000"),
            System.getProperty("bench.runs", "5"));
    assertThat(child.exitCode()).as("see the output above").isZero();
    assertThat(child.output()).contains("AvroPathBench: done");
  }
}
