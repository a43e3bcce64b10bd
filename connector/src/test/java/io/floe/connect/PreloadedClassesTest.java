/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import org.junit.jupiter.api.Test;

class PreloadedClassesTest {
  @Test
  void everyClassNamedIsInTheVersionsWeShip() {
    for (String name : PreloadedClasses.NAMES) {
      assertThatCode(() -> Class.forName(name, true, PreloadedClasses.class.getClassLoader()))
          .as(name)
          .doesNotThrowAnyException();
    }
    assertThat(PreloadedClasses.load(PreloadedClasses.class.getClassLoader()))
        .isEqualTo(PreloadedClasses.NAMES.size());
  }

  @Test
  void aNameTheBuildDoesNotHaveIsSkipped() {
    ClassLoader empty = new ClassLoader(null) {};
    assertThat(PreloadedClasses.load(empty))
        .as("only the JDK's classes are found without the plugin's jars")
        .isEqualTo(
            (int) PreloadedClasses.NAMES.stream().filter(name -> name.startsWith("java.")).count());
  }
}
