/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.stack;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Blocks of README.md that the tests use as they are written, so that the README cannot drift. */
public final class Readme {
  private static final Pattern PROPERTIES_BLOCK =
      Pattern.compile("(?ms)^[ \\t]*```properties\\n(.*?)^[ \\t]*```$");

  private Readme() {}

  public static Path path() {
    return Paths.get(System.getProperty("floe.readme", "../README.md"));
  }

  /**
   * The worker properties of the README's {@code properties} block that sets {@code key} to {@code
   * value}.
   *
   * @throws IllegalStateException when no block of the README does
   */
  public static Map<String, String> workerPropertiesSetting(String key, String value) {
    String readme;
    try {
      readme = Files.readString(path(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read " + path(), e);
    }
    Matcher block = PROPERTIES_BLOCK.matcher(readme);
    while (block.find()) {
      Properties properties = new Properties();
      try {
        properties.load(new StringReader(block.group(1)));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      if (value.equals(properties.getProperty(key))) {
        Map<String, String> found = new TreeMap<>();
        properties
            .stringPropertyNames()
            .forEach(name -> found.put(name, properties.getProperty(name)));
        return found;
      }
    }
    throw new IllegalStateException(
        path() + " has no properties block setting " + key + "=" + value);
  }
}
