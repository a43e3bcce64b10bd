/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.MockAdminClient;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ControlTopicTest {
  private final MockAdminClient admin =
      MockAdminClient.create().brokers(List.of(new Node(0, "localhost", 9092))).build();

  @AfterEach
  void close() {
    admin.close();
  }

  private void preCreate(String name, int partitions) {
    Node broker = admin.broker(0);
    admin.addTopic(
        false,
        name,
        IntStream.range(0, partitions)
            .mapToObj(p -> new TopicPartitionInfo(p, broker, List.of(broker), List.of(broker)))
            .toList(),
        Map.of());
  }

  @Test
  void aPreCreatedTopicOfSeveralPartitionsIsRefusedSayingWhyAndWhatToDo() {
    preCreate("control-iceberg", 3);

    assertThatThrownBy(() -> ControlTopic.ensure(admin, "control-iceberg"))
        .isInstanceOf(ConnectException.class)
        .hasMessageStartingWith("Control topic control-iceberg has 3 partitions")
        .hasMessageContaining("exactly one")
        .hasMessageContaining("read in the order they were written")
        .hasMessageContaining("one position")
        .hasMessageContaining("iceberg.control.topic")
        .hasMessageContaining("create control-iceberg again with 1 partition");
  }

  @Test
  void aPreCreatedTopicOfOnePartitionIsUsedAsItIs() {
    preCreate("floe-control", 1);

    ControlTopic topic = ControlTopic.ensure(admin, "floe-control");

    assertThat(topic.partitions()).containsExactly(new TopicPartition("floe-control", 0));
  }
}
