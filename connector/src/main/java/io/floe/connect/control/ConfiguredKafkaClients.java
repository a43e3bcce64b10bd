/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.control;

import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The control clients built from the connector's {@code iceberg.kafka.*} properties, with the
 * settings exactly-once needs laid over them (idempotence, {@code read_committed}, no auto commit).
 */
public final class ConfiguredKafkaClients implements KafkaClients {
  private final Map<String, Object> base;

  /**
   * @param kafkaProperties the client properties ({@code iceberg.kafka.*} without the prefix)
   */
  public ConfiguredKafkaClients(Map<String, Object> kafkaProperties) {
    this.base = Map.copyOf(kafkaProperties);
  }

  @Override
  public Producer<byte[], byte[]> producer(String transactionalId, String clientId) {
    Map<String, Object> props = new HashMap<>(base);
    props.put(ProducerConfig.CLIENT_ID_CONFIG, clientId);
    props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
    props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    props.put(ProducerConfig.ACKS_CONFIG, "all");
    props.putIfAbsent(ProducerConfig.LINGER_MS_CONFIG, 0);
    props.putIfAbsent(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, 60_000);
    return new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
  }

  @Override
  public Consumer<byte[], byte[]> consumer(String groupId, String clientId) {
    Map<String, Object> props = new HashMap<>(base);
    props.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
    props.remove(ConsumerConfig.GROUP_ID_CONFIG);
    if (groupId != null) {
      props.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
    }
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    return new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
  }

  @Override
  public String endpoint() {
    return base.get(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG)
        + " (security.protocol="
        + base.getOrDefault(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "PLAINTEXT")
        + ")";
  }

  @Override
  public Admin admin(String clientId) {
    Map<String, Object> props = new HashMap<>(base);
    props.put(AdminClientConfig.CLIENT_ID_CONFIG, clientId);
    return Admin.create(props);
  }
}
