/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.connect.IcebergSinkConnector;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.config.ConfigValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Amazon MSK's IAM login (SASL mechanism {@code AWS_MSK_IAM}) for the control clients, set on the
 * connector or inherited from the worker: accepted, and its classes load from the plugin's class
 * path. Logging in to MSK itself cannot be done without an MSK cluster.
 */
class MskIamLoginTest {
  private static final String LOGIN_MODULE = "software.amazon.msk.auth.iam.IAMLoginModule";
  private static final String CALLBACK_HANDLER =
      "software.amazon.msk.auth.iam.IAMClientCallbackHandler";
  private static final String JAAS =
      LOGIN_MODULE + " required awsRoleArn=\"arn:aws:iam::123456789012:role/floe\";";

  @TempDir Path dir;

  /** The client settings of the MSK IAM recipe in the README. */
  private static Map<String, String> mskIam() {
    return Map.of(
        "security.protocol",
        "SASL_SSL",
        "sasl.mechanism",
        "AWS_MSK_IAM",
        "sasl.jaas.config",
        JAAS,
        "sasl.client.callback.handler.class",
        CALLBACK_HANDLER);
  }

  @Test
  void theIamLoginOfTheControlClientsValidates() {
    Map<String, String> config = MinimalConfigs.withoutBootstrapServers();
    config.put(KafkaKeys.KAFKA_BOOTSTRAP_SERVERS, "b-1.msk.example:9098");
    mskIam().forEach((key, value) -> config.put(KafkaKeys.KAFKA_PREFIX + key, value));

    Map<String, List<String>> errors =
        new IcebergSinkConnector()
            .validate(config).configValues().stream()
                .filter(value -> !value.errorMessages().isEmpty())
                .collect(Collectors.toMap(ConfigValue::name, ConfigValue::errorMessages));

    assertThat(errors).isEmpty();
    assertThat(new FloeSinkConfig(config).kafkaProperties(WorkerKafka.ofThisProcess()))
        .containsEntry("sasl.jaas.config", JAAS)
        .containsEntry("sasl.client.callback.handler.class", CALLBACK_HANDLER);
  }

  @Test
  void theWorkersIamLoginIsInheritedByTheControlClients() throws IOException {
    StringBuilder properties = new StringBuilder("bootstrap.servers=b-1.msk.example:9098\n");
    mskIam().forEach((key, value) -> properties.append(key).append('=').append(value).append('\n'));
    WorkerKafka worker = WorkerFiles.distributedWorker(dir, properties.toString());

    assertThat(new FloeSinkConfig(MinimalConfigs.withoutBootstrapServers()).kafkaProperties(worker))
        .containsEntry("bootstrap.servers", "b-1.msk.example:9098")
        .containsEntry("sasl.mechanism", "AWS_MSK_IAM")
        .containsEntry("sasl.jaas.config", JAAS)
        .containsEntry("sasl.client.callback.handler.class", CALLBACK_HANDLER);
  }

  /**
   * A Kafka client made with the settings loads the callback handler and logs in with the JAAS
   * module when it is created, as the control clients are; it reaches no broker here.
   */
  @Test
  void aKafkaClientLoadsTheLoginModuleAndCallbackHandlerFromThePluginClassPath()
      throws ClassNotFoundException {
    ClassLoader plugin = IcebergSinkConnector.class.getClassLoader();
    assertThat(Class.forName(LOGIN_MODULE, false, plugin)).isNotNull();
    assertThat(Class.forName(CALLBACK_HANDLER, false, plugin)).isNotNull();

    Map<String, Object> props = new HashMap<>(mskIam());
    props.put("bootstrap.servers", "127.0.0.1:9");
    props.put("client.id", "floe-msk-iam-test");
    try (Admin admin = Admin.create(props)) {
      assertThat(admin).isNotNull();
    }
  }
}
