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
 * Floe's JSON converter against Connect's, {@link JsonConverterBench} in a child JVM of its own. It
 * prints the figures; the assertion checks only that the run completed.
 */
@Tag("bench")
class JsonConverterBenchIT {
  @Test
  void floesJsonConverterAgainstConnects() throws Exception {
    WriterBenchIT.Child child =
        WriterBenchIT.run(
            "json-converter",
            List.of("-Xmx1g"),
            JsonConverterBench.class,
            System.getProperty("bench.records", "200000"),
            System.getProperty("bench.runs", "5"));
    assertThat(child.exitCode()).as("see the output above").isZero();
    assertThat(child.output()).contains("read: Floe");
  }
}
