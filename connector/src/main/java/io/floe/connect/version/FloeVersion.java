/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.version;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/** The version of this build of Floe, as stamped into the jar by Maven. */
public final class FloeVersion {
  private static final String VERSION = load();

  private FloeVersion() {}

  public static String get() {
    return VERSION;
  }

  private static String load() {
    try (InputStream in =
        FloeVersion.class.getResourceAsStream("/io/floe/connect/floe-version.properties")) {
      if (in == null) {
        return "unknown";
      }
      Properties props = new Properties();
      props.load(in);
      return props.getProperty("version", "unknown");
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read Floe's version resource", e);
    }
  }
}
