/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.InstanceOfAssertFactories.STRING;

import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CompatibilityLevelTest {
  private static final Schema ID_ONLY = record("{\"name\":\"id\",\"type\":\"long\"}");
  private static final Schema PLUS_REQUIRED_NAME =
      record("{\"name\":\"id\",\"type\":\"long\"}", "{\"name\":\"name\",\"type\":\"string\"}");
  private static final Schema PLUS_OPTIONAL_NAME =
      record(
          "{\"name\":\"id\",\"type\":\"long\"}",
          "{\"name\":\"name\",\"type\":[\"null\",\"string\"],\"default\":null}");

  private static Schema record(String... fields) {
    return new Schema.Parser()
        .parse(
            "{\"type\":\"record\",\"name\":\"Order\",\"fields\":["
                + String.join(",", fields)
                + "]}");
  }

  private static List<CompatibilityLevel.Previous> history(Schema... newestFirst) {
    List<CompatibilityLevel.Previous> previous = new ArrayList<>();
    for (int i = 0; i < newestFirst.length; i++) {
      previous.add(new CompatibilityLevel.Previous(newestFirst.length - i, newestFirst[i]));
    }
    return previous;
  }

  @ParameterizedTest(name = "{0}: add required field ok={1}, add optional ok={2}, drop ok={3}")
  @CsvSource({
    "NONE,                true,  true,  true",
    "BACKWARD,            false, true,  true",
    "BACKWARD_TRANSITIVE, false, true,  true",
    "FORWARD,             true,  true,  false",
    "FORWARD_TRANSITIVE,  true,  true,  false",
    "FULL,                false, true,  false",
    "FULL_TRANSITIVE,     false, true,  false",
  })
  void eachLevelJudgesTheTypicalChangesAsAvroDoes(
      CompatibilityLevel level, boolean addRequired, boolean addOptional, boolean dropRequired) {
    assertThat(level.problems(PLUS_REQUIRED_NAME, history(ID_ONLY)).isEmpty())
        .isEqualTo(addRequired);
    assertThat(level.problems(PLUS_OPTIONAL_NAME, history(ID_ONLY)).isEmpty())
        .isEqualTo(addOptional);
    assertThat(level.problems(ID_ONLY, history(PLUS_REQUIRED_NAME)).isEmpty())
        .isEqualTo(dropRequired);
  }

  @Test
  void backwardChecksOnlyTheLatestVersionWhileTransitiveChecksAll() {
    // v2 added an optional name; v3 drops id and requires name: it reads v2 but not v1
    Schema v3 = record("{\"name\":\"name\",\"type\":[\"null\",\"string\"]}");
    List<CompatibilityLevel.Previous> previous = history(PLUS_OPTIONAL_NAME, ID_ONLY);

    assertThat(CompatibilityLevel.BACKWARD.problems(v3, previous)).isEmpty();
    assertThat(CompatibilityLevel.BACKWARD_TRANSITIVE.problems(v3, previous))
        .singleElement(STRING)
        .contains("READER_FIELD_MISSING_DEFAULT_VALUE")
        .contains("reading version 1");
  }

  @Test
  void problemsNameTheAvroIncompatibilityAndWhere() {
    assertThat(CompatibilityLevel.BACKWARD.problems(PLUS_REQUIRED_NAME, history(ID_ONLY)))
        .singleElement(STRING)
        .contains("READER_FIELD_MISSING_DEFAULT_VALUE", "/fields/1", "name");
  }

  @Test
  void aFirstVersionIsAlwaysAcceptable() {
    for (CompatibilityLevel level : CompatibilityLevel.values()) {
      assertThat(level.problems(PLUS_REQUIRED_NAME, List.of())).isEmpty();
    }
  }

  @Test
  void levelNamesParseInAnyCaseAndUnknownNamesDoNot() {
    assertThat(CompatibilityLevel.forName("full_transitive"))
        .contains(CompatibilityLevel.FULL_TRANSITIVE);
    assertThat(CompatibilityLevel.forName("Backward")).contains(CompatibilityLevel.BACKWARD);
    assertThat(CompatibilityLevel.forName("SIDEWAYS")).isEmpty();
    assertThat(CompatibilityLevel.forName(null)).isEmpty();
  }
}
