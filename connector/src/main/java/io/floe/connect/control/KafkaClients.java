/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.control;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.producer.Producer;

/** Creates the Kafka clients of the control channel: the seam tests replace. */
public interface KafkaClients {
  /** A transactional producer with the given stable transactional id; not yet initialised. */
  Producer<byte[], byte[]> producer(String transactionalId, String clientId);

  /**
   * A {@code read_committed} consumer that never commits on its own.
   *
   * @param groupId the group whose committed offsets it uses, or null for none
   */
  Consumer<byte[], byte[]> consumer(String groupId, String clientId);

  Admin admin(String clientId);

  /** Where the clients connect, for messages: their bootstrap servers and security protocol. */
  default String endpoint() {
    return "its bootstrap servers";
  }
}
