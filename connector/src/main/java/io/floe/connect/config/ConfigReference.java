/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import org.apache.kafka.common.config.ConfigDef;

/**
 * The README's configuration reference, generated from the one {@link ConfigDef}: the docs cannot
 * drift from the code because they are made from it. {@code main} rewrites the section between the
 * markers in a Markdown file; a test fails while the committed copy is stale.
 */
public final class ConfigReference {
  public static final String START =
      "<!-- config-reference:start (generated from FloeSinkConfig; do not edit) -->";
  public static final String END = "<!-- config-reference:end -->";

  private ConfigReference() {}

  /** The reference as a Markdown table, grouped as in the ConfigDef. */
  public static String markdown(ConfigDef def) {
    List<ConfigDef.ConfigKey> keys = new ArrayList<>(def.configKeys().values());
    List<String> groups = def.groups();
    keys.sort(
        Comparator.comparingInt((ConfigDef.ConfigKey k) -> groups.indexOf(k.group))
            .thenComparingInt(k -> k.orderInGroup));
    StringBuilder out = new StringBuilder();
    out.append("| key | type | default | valid values | importance | description |\n");
    out.append("|---|---|---|---|---|---|\n");
    String group = null;
    for (ConfigDef.ConfigKey key : keys) {
      if (!key.group.equals(group)) {
        group = key.group;
        out.append("| **").append(group).append("** | | | | | |\n");
      }
      out.append("| `")
          .append(key.name)
          .append("` | ")
          .append(key.type.name().toLowerCase(Locale.ROOT))
          .append(" | ")
          .append(defaultOf(key))
          .append(" | ")
          .append(key.validator == null ? "" : cell(key.validator.toString()))
          .append(" | ")
          .append(key.importance.name().toLowerCase(Locale.ROOT))
          .append(" | ")
          .append(cell(key.documentation))
          .append(" |\n");
    }
    return out.toString();
  }

  private static String defaultOf(ConfigDef.ConfigKey key) {
    if (!key.hasDefault()) {
      return "(required)";
    }
    if (key.defaultValue == null) {
      return "";
    }
    String text = ConfigDef.convertToString(key.defaultValue, key.type);
    return text == null || text.isEmpty() ? "\"\"" : "`" + text + "`";
  }

  private static String cell(String text) {
    return text.replace("|", "\\|").replace("\n", " ");
  }

  /** {@code document} with the section between the markers replaced by {@code reference}. */
  public static String replaceSection(String document, String reference) {
    int start = document.indexOf(START);
    int end = document.indexOf(END);
    if (start < 0 || end < start) {
      throw new IllegalArgumentException("the document lacks the markers " + START + " ... " + END);
    }
    return document.substring(0, start + START.length())
        + "\n"
        + reference
        + document.substring(end);
  }

  /** Rewrites the reference section of the Markdown file given as the first argument. */
  public static void main(String[] args) throws IOException {
    Path file = Paths.get(args.length > 0 ? args[0] : "README.md");
    String document = Files.readString(file, StandardCharsets.UTF_8);
    Files.writeString(
        file,
        replaceSection(document, markdown(FloeSinkConfig.CONFIG_DEF)),
        StandardCharsets.UTF_8);
  }
}
