/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.storage.Converter;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Floe's JSON converter against Connect's on generated records of every type: wherever Connect's
 * converter does not change a value (the cases of {@link JsonConverterAlterationsTest}), both read
 * the same schema and value, and both write the same bytes, so each reads what the other wrote.
 */
class JsonConverterDifferentialTest {
  private static final int RECORDS = 1500;

  static Stream<Arguments> settings() {
    return Stream.of(
        Arguments.of(true, "BASE64", "true"),
        Arguments.of(true, "NUMERIC", "true"),
        Arguments.of(true, "BASE64", "false"),
        Arguments.of(false, "BASE64", "true"),
        Arguments.of(false, "NUMERIC", "false"));
  }

  @ParameterizedTest(name = "schemas.enable={0} decimal.format={1} replace.null.with.default={2}")
  @MethodSource("settings")
  void bothConvertersWriteTheSameBytesAndReadTheSameValues(
      boolean schemas, String decimalFormat, String replaceNull) {
    String[] settings = {"decimal.format", decimalFormat, "replace.null.with.default", replaceNull};
    Converter connect = JsonConverters.connect(schemas, settings);
    Converter floe = JsonConverters.floe(schemas, settings);
    ConnectData data = new ConnectData(schemas ? 17 : 23);
    Schema schema = null;
    for (int i = 0; i < RECORDS; i++) {
      if (i % 10 == 0) {
        schema = data.struct(3);
      }
      Object value = data.value(schema);
      String what = "record " + i + " of schema " + schema;

      SchemaAndValue floeRead = sameBothWays(connect, floe, schema, value, what);
      if (floeRead != null && schemas && "false".equals(replaceNull)) {
        assertThat(ConnectData.comparable(floeRead.value()))
            .as("the value written, read back, %s", what)
            .isEqualTo(ConnectData.comparable(value));
      }
    }
  }

  @ParameterizedTest(name = "schemas.enable={0} decimal.format={1} replace.null.with.default={2}")
  @MethodSource("settings")
  void bothConvertersReadEveryTopLevelType(
      boolean schemas, String decimalFormat, String replaceNull) {
    String[] settings = {"decimal.format", decimalFormat, "replace.null.with.default", replaceNull};
    Converter connect = JsonConverters.connect(schemas, settings);
    Converter floe = JsonConverters.floe(schemas, settings);
    ConnectData data = new ConnectData(5);
    for (int i = 0; i < 400; i++) {
      Schema schema = data.schema(2);
      Object value = data.value(schema);
      sameBothWays(connect, floe, schema, value, "a value of " + schema);
    }
  }

  /**
   * Checks that both converters write the same bytes for the value (or both refuse it) and read
   * those bytes to the same schema and value; Floe's reading, or null when the value was refused.
   */
  private static SchemaAndValue sameBothWays(
      Converter connect, Converter floe, Schema schema, Object value, String what) {
    byte[] written = written(connect, floe, schema, value, what);
    if (written == null) {
      return null;
    }
    SchemaAndValue connectRead = connect.toConnectData("t", written);
    SchemaAndValue floeRead = floe.toConnectData("t", written);
    assertThat(floeRead.schema()).as("schema read, %s", what).isEqualTo(connectRead.schema());
    assertThat(ConnectData.comparable(floeRead.value()))
        .as("value read, %s", what)
        .isEqualTo(ConnectData.comparable(connectRead.value()));
    return floeRead;
  }

  /**
   * What Connect's converter writes, having checked that Floe's writes the same bytes, or refuses
   * the value too (a null for a required field whose default is not used); null for either.
   */
  private static byte[] written(
      Converter connect, Converter floe, Schema schema, Object value, String what) {
    byte[] connectWrote;
    try {
      connectWrote = connect.fromConnectData("t", schema, value);
    } catch (DataException refused) {
      assertThatThrownBy(() -> floe.fromConnectData("t", schema, value))
          .as("refused, %s", what)
          .isInstanceOf(DataException.class);
      return null;
    }
    byte[] floeWrote = floe.fromConnectData("t", schema, value);
    assertThat(text(floeWrote)).as("bytes written, %s", what).isEqualTo(text(connectWrote));
    return connectWrote;
  }

  private static String text(byte[] bytes) {
    return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
  }
}
