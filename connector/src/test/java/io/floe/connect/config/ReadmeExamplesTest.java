/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.config;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * README.md shows config examples inline: each JSON block that its paragraph introduces as a file
 * of {@code config-examples/} holds that file's config, and the README's links lead somewhere.
 */
class ReadmeExamplesTest {
  private static final Path README = Paths.get("..", "README.md");
  private static final Path ROOT = Paths.get("..");
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern EXAMPLE_FILE =
      Pattern.compile("config-examples/([A-Za-z0-9._-]+\\.json)");
  private static final Pattern FENCE = Pattern.compile("^\\s*```(\\S*)\\s*$");
  private static final Pattern SECTION_LINK = Pattern.compile("\\]\\(#([^)\\s]+)\\)");
  private static final Pattern FILE_LINK =
      Pattern.compile("\\]\\(((?:config-examples|[A-Z]+\\.md)[^)#\\s]*)(?:#[^)]*)?\\)");

  /** A fenced block of the README, with the paragraph right above it. */
  private record Block(int line, String info, String body, String paragraph) {}

  @Test
  void everyJsonBlockIntroducedAsAnExampleFileHoldsThatFilesConfig() throws IOException {
    int checked = 0;
    for (Block block : blocks(readme())) {
      if (!block.info().equals("json")) {
        continue;
      }
      Set<String> files = new TreeSet<>();
      Matcher named = EXAMPLE_FILE.matcher(block.paragraph());
      while (named.find()) {
        files.add(named.group(1));
      }
      if (files.isEmpty()) {
        continue;
      }
      assertThat(files)
          .as(
              "the paragraph above the JSON block at README.md line %d names one example",
              block.line())
          .hasSize(1);
      String file = files.iterator().next();
      JsonNode expected = JSON.readTree(ROOT.resolve("config-examples").resolve(file).toFile());
      assertThat(asConnectorConfig(JSON.readTree(block.body())))
          .as(
              "the JSON block at README.md line %d, introduced as config-examples/%s",
              block.line(), file)
          .isEqualTo(expected);
      checked++;
    }
    assertThat(checked).as("JSON blocks introduced as example files").isGreaterThanOrEqualTo(2);
  }

  /**
   * A {@code POST /connectors} body ({@code name} beside {@code config}) as the example files hold
   * it, which is the {@code PUT /connectors/<name>/config} body: the config with its name in it.
   */
  private static JsonNode asConnectorConfig(JsonNode body) {
    if (!(body.get("config") instanceof ObjectNode config)) {
      return body;
    }
    ObjectNode flat = JSON.createObjectNode();
    flat.set("name", body.get("name"));
    flat.setAll(config);
    return flat;
  }

  @Test
  void everyLinkLeadsToAHeadingOrAFile() throws IOException {
    String readme = readme();
    Set<String> anchors = anchors(readme);
    List<String> broken = new ArrayList<>();
    Matcher section = SECTION_LINK.matcher(readme);
    while (section.find()) {
      if (!anchors.contains(section.group(1))) {
        broken.add("#" + section.group(1));
      }
    }
    Matcher file = FILE_LINK.matcher(readme);
    while (file.find()) {
      if (!Files.exists(ROOT.resolve(file.group(1)))) {
        broken.add(file.group(1));
      }
    }
    assertThat(broken).as("links in README.md that lead nowhere").isEmpty();
  }

  private static String readme() throws IOException {
    return Files.readString(README, StandardCharsets.UTF_8);
  }

  private static List<Block> blocks(String readme) {
    String[] lines = readme.split("\n", -1);
    List<Block> blocks = new ArrayList<>();
    for (int i = 0; i < lines.length; i++) {
      Matcher open = FENCE.matcher(lines[i]);
      if (!open.matches()) {
        continue;
      }
      int start = i;
      StringBuilder body = new StringBuilder();
      for (i++; i < lines.length && !FENCE.matcher(lines[i]).matches(); i++) {
        body.append(lines[i]).append('\n');
      }
      // the paragraph above the block: the text lines before it, up to a blank line or a fence
      int end = start;
      while (end > 0 && lines[end - 1].isBlank()) {
        end--;
      }
      int top = end;
      while (top > 0 && !lines[top - 1].isBlank() && !FENCE.matcher(lines[top - 1]).matches()) {
        top--;
      }
      String paragraph = String.join("\n", List.of(lines).subList(top, end));
      blocks.add(new Block(start + 1, open.group(1), body.toString(), paragraph));
    }
    return blocks;
  }

  /** The anchors GitHub gives the README's headings (those outside fenced blocks). */
  private static Set<String> anchors(String readme) {
    Set<String> anchors = new HashSet<>();
    Map<String, Integer> seen = new HashMap<>();
    boolean fenced = false;
    for (String line : readme.split("\n")) {
      if (FENCE.matcher(line).matches()) {
        fenced = !fenced;
        continue;
      }
      if (fenced || !line.startsWith("#")) {
        continue;
      }
      String title = line.replaceFirst("^#+\\s*", "");
      String anchor =
          title.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
      int count = seen.merge(anchor, 1, Integer::sum);
      anchors.add(count == 1 ? anchor : anchor + "-" + (count - 1));
    }
    return anchors;
  }
}
