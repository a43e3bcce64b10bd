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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Soft and permanent deletion of subjects and versions, over real HTTP. */
class SchemaRegistryDeletionTest {
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

  private Response call(String method, String path) {
    return client.call(method, path, null);
  }

  @Test
  void softDeletedSubjectLeavesListingsButStaysVisibleWithDeletedAndItsIdsResolve() {
    int id = client.register("orders-value", ORDER_V1);
    client.register("orders-value", ORDER_PLUS_OPTIONAL);

    Response deleted = call("DELETE", "/subjects/orders-value");

    assertThat(deleted.status()).isEqualTo(200);
    assertThat(deleted.text()).isEqualTo("[1,2]");
    assertThat(call("GET", "/subjects").text()).isEqualTo("[]");
    assertThat(call("GET", "/subjects?deleted=true").text()).isEqualTo("[\"orders-value\"]");
    assertThat(call("GET", "/subjects/orders-value/versions").errorCode()).isEqualTo(40401);
    assertThat(call("GET", "/subjects/orders-value/versions?deleted=true").text())
        .isEqualTo("[1,2]");
    assertThat(call("GET", "/subjects/orders-value/versions/1").errorCode()).isEqualTo(40401);
    assertThat(call("GET", "/subjects/orders-value/versions/1?deleted=true").status())
        .isEqualTo(200);
    assertThat(call("GET", "/schemas/ids/" + id).status()).isEqualTo(200);
    assertThat(call("GET", "/schemas/ids/" + id + "/versions").text()).isEqualTo("[]");
    assertThat(call("GET", "/schemas/ids/" + id + "/versions?deleted=true").text())
        .isEqualTo("[{\"subject\":\"orders-value\",\"version\":1}]");

    String lookup = schemaBody(ORDER_V1);
    assertThat(client.call("POST", "/subjects/orders-value", lookup).errorCode()).isEqualTo(40401);
    Response found = client.call("POST", "/subjects/orders-value?deleted=true", lookup);
    assertThat(found.status()).isEqualTo(200);
    assertThat(found.json().get("version").asInt()).isEqualTo(1);
  }

  @Test
  void permanentDeletionNeedsASoftDeletionFirst() {
    client.register("orders-value", ORDER_V1);

    Response tooEarly = call("DELETE", "/subjects/orders-value?permanent=true");
    assertThat(tooEarly.status()).isEqualTo(404);
    assertThat(tooEarly.text())
        .isEqualTo(
            "{\"error_code\":40405,\"message\":\"Subject 'orders-value' was not deleted first"
                + " before being permanently deleted\"}");
    assertThat(call("DELETE", "/subjects/orders-value").text()).isEqualTo("[1]");
    Response again = call("DELETE", "/subjects/orders-value");
    assertThat(again.status()).isEqualTo(404);
    assertThat(again.errorCode()).isEqualTo(40404);

    assertThat(call("DELETE", "/subjects/orders-value?permanent=true").text()).isEqualTo("[1]");

    assertThat(call("GET", "/subjects?deleted=true").text()).isEqualTo("[]");
    assertThat(call("DELETE", "/subjects/orders-value").errorCode()).isEqualTo(40401);
    assertThat(call("DELETE", "/subjects/never-registered").errorCode()).isEqualTo(40401);
  }

  @Test
  void reRegisteringAfterDeletionKeepsTheIdInANewVersionWithoutCheckingDeletedVersions() {
    int id = client.register("orders-value", ORDER_V1);
    call("DELETE", "/subjects/orders-value");

    assertThat(client.register("orders-value", ORDER_V1)).isEqualTo(id);
    assertThat(call("GET", "/subjects/orders-value/versions").text()).isEqualTo("[2]");

    call("DELETE", "/subjects/orders-value/versions/2");
    int incompatibleWithDeleted = client.register("orders-value", ORDER_PLUS_REQUIRED);
    assertThat(incompatibleWithDeleted).isNotEqualTo(id);
    assertThat(call("GET", "/subjects/orders-value/versions").text()).isEqualTo("[3]");
  }

  @Test
  void aVersionIsSoftDeletedThenPermanentlyDeleted() {
    client.register("orders-value", ORDER_V1);
    client.register("orders-value", ORDER_PLUS_OPTIONAL);

    Response deleted = call("DELETE", "/subjects/orders-value/versions/1");
    assertThat(deleted.status()).isEqualTo(200);
    assertThat(deleted.text()).isEqualTo("1");
    assertThat(call("GET", "/subjects/orders-value/versions").text()).isEqualTo("[2]");

    Response twice = call("DELETE", "/subjects/orders-value/versions/1");
    assertThat(twice.status()).isEqualTo(404);
    assertThat(twice.text())
        .isEqualTo(
            "{\"error_code\":40406,\"message\":\"Subject 'orders-value' Version 1 was soft"
                + " deleted.Set permanent=true to delete permanently\"}");
    Response liveVersion = call("DELETE", "/subjects/orders-value/versions/2?permanent=true");
    assertThat(liveVersion.status()).isEqualTo(404);
    assertThat(liveVersion.errorCode()).isEqualTo(40407);

    assertThat(call("DELETE", "/subjects/orders-value/versions/1?permanent=true").text())
        .isEqualTo("1");
    assertThat(call("GET", "/subjects/orders-value/versions?deleted=true").text()).isEqualTo("[2]");
  }

  @Test
  void deletingLatestTakesTheNewestLiveVersion() {
    client.register("orders-value", ORDER_V1);
    client.register("orders-value", ORDER_PLUS_OPTIONAL);

    assertThat(call("DELETE", "/subjects/orders-value/versions/latest").text()).isEqualTo("2");
    assertThat(call("DELETE", "/subjects/orders-value/versions/-1").text()).isEqualTo("1");

    assertThat(call("GET", "/subjects").text()).isEqualTo("[]");
  }

  @Test
  void deletingAnUnknownVersionReportsWhatIsUnknown() {
    client.register("orders-value", ORDER_V1);

    Response version = call("DELETE", "/subjects/orders-value/versions/7");
    assertThat(version.status()).isEqualTo(404);
    assertThat(version.errorCode()).isEqualTo(40402);
    assertThat(call("DELETE", "/subjects/orders-value/versions/abc").errorCode()).isEqualTo(42202);
    assertThat(call("DELETE", "/subjects/nope/versions/1").errorCode()).isEqualTo(40401);
  }
}
