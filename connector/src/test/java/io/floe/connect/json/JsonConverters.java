/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.json;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/** Floe's and Connect's JSON converters, configured alike, and envelopes to feed them. */
final class JsonConverters {
  private JsonConverters() {}

  static JsonConverter floe(boolean schemas, String... settings) {
    JsonConverter converter = new JsonConverter();
    converter.configure(settings(schemas, settings), false);
    return converter;
  }

  /** Connect's converter; without Afterburner, which only speeds up binding to Java classes. */
  static org.apache.kafka.connect.json.JsonConverter connect(boolean schemas, String... settings) {
    org.apache.kafka.connect.json.JsonConverter converter =
        new org.apache.kafka.connect.json.JsonConverter(false);
    converter.configure(settings(schemas, settings), false);
    return converter;
  }

  private static Map<String, String> settings(boolean schemas, String... settings) {
    Map<String, String> props = new HashMap<>();
    props.put("schemas.enable", Boolean.toString(schemas));
    for (int i = 0; i < settings.length; i += 2) {
      props.put(settings[i], settings[i + 1]);
    }
    return props;
  }

  /** An envelope of a struct with the one field {@code f}: its schema's JSON and its value's. */
  static byte[] field(String fieldSchema, String value) {
    String schema =
        "{\"type\":\"struct\",\"optional\":false,\"fields\":["
            + fieldSchema.substring(0, fieldSchema.length() - 1)
            + ",\"field\":\"f\"}]}";
    return envelope(schema, "{\"f\":" + value + "}");
  }

  static byte[] envelope(String schema, String payload) {
    return utf8("{\"schema\":" + schema + ",\"payload\":" + payload + "}");
  }

  static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
