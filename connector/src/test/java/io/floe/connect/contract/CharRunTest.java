/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** A pattern checked without the regular-expression engine decides as the engine does. */
class CharRunTest {
  private static final String ALPHABET = "abfgzAFZ09_-.:/ é\n\r\u2028";

  @Test
  void runsOfACharacterClassDecideAsTheEngineDoes() {
    List<String> runs =
        List.of(
            "^[0-9a-f-]{36}$",
            "^[A-Z]{2}$",
            "^[A-Z]{2,3}$",
            "^[a-z_]+$",
            "^[a-f0-9]*$",
            "^[-a]{1,}$",
            "^[a.:/ ]{0,4}$");
    Random random = new Random(7);
    for (String regex : runs) {
      Pattern pattern = Pattern.compile(regex);
      ContractChecker.CharRun run = ContractChecker.CharRun.of(pattern);
      assertThat(run).as(regex).isNotNull();
      for (int i = 0; i < 20_000; i++) {
        StringBuilder text = new StringBuilder();
        int length = random.nextInt(6) == 0 ? 36 : random.nextInt(6);
        for (int c = 0; c < length; c++) {
          text.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
        }
        boolean found = pattern.matcher(text).find();
        assertThat(run.broken(text.toString()) == null)
            .as("%s on %s", regex, text.toString().replace("\n", "\\n"))
            .isEqualTo(found);
      }
      assertThat(run.broken("ab\n".repeat(1)) == null).isEqualTo(pattern.matcher("ab\n").find());
    }
  }

  @Test
  void anyOtherPatternIsLeftToTheEngine() {
    for (String regex :
        List.of(
            "[a-z]{2}",
            "^[a-z]{2}",
            "^[^a-z]{2}$",
            "^[a-z]{2}x$",
            "^[a-z&&b]{2}$",
            "^[\\w]{2}$",
            "^[a-b-c]{2}$",
            "^[A-z]{2}$",
            "^[a-z]?$")) {
      assertThat(ContractChecker.CharRun.of(Pattern.compile(regex))).as(regex).isNull();
    }
    assertThat(ContractChecker.CharRun.of(Pattern.compile("^[a-z]+$", Pattern.CASE_INSENSITIVE)))
        .isNull();
  }
}
