/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.registry;

import static io.floe.it.registry.RegistryTestClient.ORDER_PLUS_OPTIONAL;
import static io.floe.it.registry.RegistryTestClient.ORDER_PLUS_REQUIRED;
import static io.floe.it.registry.RegistryTestClient.ORDER_V1;
import static io.floe.it.registry.RegistryTestClient.schemaBody;
import static org.assertj.core.api.Assertions.assertThat;

import io.floe.it.registry.RegistryTestClient.Response;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Compatibility checking on registration and the {@code /config} endpoints, over real HTTP. */
class SchemaRegistryCompatibilityTest {
  private SchemaRegistryServer registry;
  private RegistryTestClient client;

  @BeforeEach
  void startRegistry() {
    registry = SchemaRegistryServer.builder().build().start();
    client = new RegistryTestClient(registry);
  }

  @AfterEach
  void stopRegistry() {
    registry.close();
  }

  private Response call(String method, String path, String body) {
    return client.call(method, path, body);
  }

  private int register(String subject, String schema) {
    return client.register(subject, schema);
  }

  @Test
  void backwardCompatibilityRejectsANewRequiredFieldWith409() {
    register("orders-value", ORDER_V1);

    Response response =
        call("POST", "/subjects/orders-value/versions", schemaBody(ORDER_PLUS_REQUIRED));

    assertThat(response.status()).isEqualTo(409);
    assertThat(response.errorCode()).isEqualTo(409);
    assertThat(response.message())
        .startsWith(
            "Schema being registered is incompatible with an earlier schema for subject"
                + " \"orders-value\"")
        .contains("READER_FIELD_MISSING_DEFAULT_VALUE", "total", "BACKWARD");
    assertThat(call("GET", "/subjects/orders-value/versions", null).text()).isEqualTo("[1]");
    assertThat(call("GET", "/schemas/ids/2", null).status()).isEqualTo(404);
  }

  @Test
  void backwardCompatibilityAcceptsANewOptionalFieldWithDefault() {
    int v1 = register("orders-value", ORDER_V1);

    int v2 = register("orders-value", ORDER_PLUS_OPTIONAL);

    assertThat(v2).isNotEqualTo(v1);
    assertThat(call("GET", "/subjects/orders-value/versions", null).text()).isEqualTo("[1,2]");
  }

  @Test
  void transitiveLevelChecksEveryLiveVersionNotOnlyTheLatest() {
    // reads ORDER_PLUS_OPTIONAL (note present) but not ORDER_V1 (note missing, no default)
    String noteOnly =
        "{\"type\":\"record\",\"name\":\"Order\",\"fields\":"
            + "[{\"name\":\"note\",\"type\":[\"null\",\"string\"]}]}";
    for (String subject : List.of("latest-only", "transitive")) {
      register(subject, ORDER_V1);
      register(subject, ORDER_PLUS_OPTIONAL);
    }
    call("PUT", "/config/transitive", "{\"compatibility\":\"BACKWARD_TRANSITIVE\"}");

    Response latestOnly = call("POST", "/subjects/latest-only/versions", schemaBody(noteOnly));
    Response transitive = call("POST", "/subjects/transitive/versions", schemaBody(noteOnly));

    assertThat(latestOnly.status()).isEqualTo(200);
    assertThat(transitive.status()).isEqualTo(409);
    assertThat(transitive.message()).contains("version 1", "BACKWARD_TRANSITIVE");
  }

  @Test
  void subjectLevelNoneAllowsAnIncompatibleChangeOnlyInThatSubject() {
    register("orders-value", ORDER_V1);
    register("other-value", ORDER_V1);

    Response set = call("PUT", "/config/orders-value", "{\"compatibility\":\"NONE\"}");
    assertThat(set.status()).isEqualTo(200);
    assertThat(set.text()).isEqualTo("{\"compatibility\":\"NONE\"}");

    Response orders =
        call("POST", "/subjects/orders-value/versions", schemaBody(ORDER_PLUS_REQUIRED));
    assertThat(orders.status()).isEqualTo(200);
    Response other =
        call("POST", "/subjects/other-value/versions", schemaBody(ORDER_PLUS_REQUIRED));
    assertThat(other.status()).isEqualTo(409);
  }

  @Test
  void globalLevelAppliesToSubjectsWithoutTheirOwn() {
    register("orders-value", ORDER_V1);
    assertThat(call("GET", "/config", null).text())
        .isEqualTo("{\"compatibilityLevel\":\"BACKWARD\"}");

    assertThat(call("PUT", "/config", "{\"compatibility\":\"none\"}").status()).isEqualTo(200);

    assertThat(call("GET", "/config", null).text()).isEqualTo("{\"compatibilityLevel\":\"NONE\"}");
    assertThat(
            call("POST", "/subjects/orders-value/versions", schemaBody(ORDER_PLUS_REQUIRED))
                .status())
        .isEqualTo(200);
  }

  @Test
  void subjectConfigIs40408UntilSetAndFallsBackToGlobalOnlyWhenAsked() {
    Response unset = call("GET", "/config/orders-value", null);
    assertThat(unset.status()).isEqualTo(404);
    assertThat(unset.text())
        .isEqualTo(
            "{\"error_code\":40408,\"message\":\"Subject 'orders-value' does not have"
                + " subject-level compatibility configured\"}");
    assertThat(call("GET", "/config/orders-value?defaultToGlobal=true", null).text())
        .isEqualTo("{\"compatibilityLevel\":\"BACKWARD\"}");

    call("PUT", "/config/orders-value", "{\"compatibility\":\"FULL_TRANSITIVE\"}");
    assertThat(call("GET", "/config/orders-value", null).text())
        .isEqualTo("{\"compatibilityLevel\":\"FULL_TRANSITIVE\"}");

    Response deleted = call("DELETE", "/config/orders-value", null);
    assertThat(deleted.status()).isEqualTo(200);
    assertThat(deleted.text()).isEqualTo("{\"compatibilityLevel\":\"FULL_TRANSITIVE\"}");
    assertThat(call("GET", "/config/orders-value", null).errorCode()).isEqualTo(40408);
    assertThat(call("DELETE", "/config/orders-value", null).errorCode()).isEqualTo(40401);
  }

  @ParameterizedTest
  @ValueSource(strings = {"{\"compatibility\":\"SIDEWAYS\"}", "{}", "{\"compatibility\":null}"})
  void unknownCompatibilityLevelIs42203(String body) {
    Response global = call("PUT", "/config", body);
    Response subject = call("PUT", "/config/orders-value", body);

    assertThat(global.status()).isEqualTo(422);
    assertThat(global.errorCode()).isEqualTo(42203);
    assertThat(subject.errorCode()).isEqualTo(42203);
    assertThat(call("GET", "/config", null).json().get("compatibilityLevel").asText())
        .isEqualTo("BACKWARD");
  }
}
