/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.avro;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.ConfigValue;
import org.apache.kafka.connect.errors.DataException;
import org.junit.jupiter.api.Test;

class AvroConverterTest {

  private static List<String> urlErrors(String urls) {
    return AvroConverter.CONFIG_DEF
        .validate(Map.of(AvroConverter.SCHEMA_REGISTRY_URL, urls))
        .stream()
        .filter(v -> v.name().equals(AvroConverter.SCHEMA_REGISTRY_URL))
        .map(ConfigValue::errorMessages)
        .findFirst()
        .orElseThrow();
  }

  @Test
  void acceptsSeveralRegistryUrls() {
    assertThat(urlErrors("http://a:8081, https://b.example.com:8081/ccompat")).isEmpty();
  }

  @Test
  void rejectsUrlsThatAreNotHttp() {
    assertThat(urlErrors("registry:8081")).singleElement().asString().contains("http://");
    assertThat(urlErrors("http://ok:8081,ftp://x")).hasSize(1);
  }

  @Test
  void requiresTheRegistryUrl() {
    assertThatThrownBy(() -> new AvroConverter().configure(Map.of(), false))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining(AvroConverter.SCHEMA_REGISTRY_URL);
  }

  @Test
  void failsLoudlyInsteadOfPassingBytesThrough() {
    AvroConverter converter = new AvroConverter();
    converter.configure(Map.of(AvroConverter.SCHEMA_REGISTRY_URL, "http://r:8081"), false);
    assertThatThrownBy(() -> converter.toConnectData("orders", new byte[] {0, 0, 0, 0, 1}))
        .isInstanceOf(DataException.class)
        .hasMessageContaining("orders");
  }
}
