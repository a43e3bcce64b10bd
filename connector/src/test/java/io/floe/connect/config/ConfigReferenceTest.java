/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.junit.jupiter.api.Test;

class ConfigReferenceTest {
  private static final Path README = Paths.get("..", "README.md");

  @Test
  void readmeHoldsTheReferenceGeneratedFromTheConfigDef() throws IOException {
    String readme = Files.readString(README, StandardCharsets.UTF_8);
    String expected =
        ConfigReference.replaceSection(readme, ConfigReference.markdown(FloeSinkConfig.CONFIG_DEF));
    assertThat(readme)
        .as(
            "README.md's configuration reference is stale; regenerate it with:%n"
                + "  mvn -q -pl connector exec:java"
                + " -Dexec.mainClass=io.floe.connect.config.ConfigReference"
                + " -Dexec.args=README.md -Dexec.classpathScope=test")
        .isEqualTo(expected);
  }

  @Test
  void listsEveryKeyWithItsDefault() {
    String reference = ConfigReference.markdown(FloeSinkConfig.CONFIG_DEF);
    for (String key : FloeSinkConfig.CONFIG_DEF.names()) {
      assertThat(reference).contains("`" + key + "`");
    }
    assertThat(reference).contains("| `iceberg.control.commit.interval-ms` | long | `60000` |");
  }
}
