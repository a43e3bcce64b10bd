/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.it.quickstart.Quickstart;
import io.floe.it.stack.StackDirs;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The README's first command keeps working: the quickstart runs end to end. */
class QuickstartIT {

  @Test
  void quickstartRunsTheEmbeddedStackEndToEnd() {
    ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(buffer, true, StandardCharsets.UTF_8);
    Quickstart.Outcome outcome = new Quickstart(StackDirs.newServiceDir("quickstart"), out).run();
    String printed = buffer.toString(StandardCharsets.UTF_8);
    System.out.print(printed);

    assertThat(printed).contains("is RUNNING").contains("Produced 101 Avro events");
    assertThat(outcome)
        .as("quickstart outcome; it printed:%n%s", printed)
        .isEqualTo(Quickstart.Outcome.TABLE_WRITTEN);
    assertThat(printed).contains("101 row(s)");
  }
}
