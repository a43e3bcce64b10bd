/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.commit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.SinkTaskContext;
import org.junit.jupiter.api.Test;

class ConnectConsumerAccessTest {

  /** Shaped like the runtime's context: the consumer in a private field named "consumer". */
  private static class RuntimeLikeContext extends EmptyContext {
    @SuppressWarnings("unused")
    private final Consumer<byte[], byte[]> consumer;

    RuntimeLikeContext(Consumer<byte[], byte[]> consumer) {
      this.consumer = consumer;
    }
  }

  private static class SubclassedContext extends RuntimeLikeContext {
    SubclassedContext(Consumer<byte[], byte[]> consumer) {
      super(consumer);
    }
  }

  private static class EmptyContext implements SinkTaskContext {
    @Override
    public Map<String, String> configs() {
      return Map.of();
    }

    @Override
    public void offset(Map<TopicPartition, Long> offsets) {}

    @Override
    public void offset(TopicPartition tp, long offset) {}

    @Override
    public void timeout(long timeoutMs) {}

    @Override
    public Set<TopicPartition> assignment() {
      return Set.of();
    }

    @Override
    public void pause(TopicPartition... partitions) {}

    @Override
    public void resume(TopicPartition... partitions) {}

    @Override
    public void requestCommit() {}
  }

  @SuppressWarnings("deprecation") // the OffsetResetStrategy constructor is the one 3.9 offers
  private static MockConsumer<byte[], byte[]> consumer() {
    return new MockConsumer<>(OffsetResetStrategy.EARLIEST);
  }

  @Test
  void readsTheGroupMetadataOfTheRuntimesConsumer() {
    MockConsumer<byte[], byte[]> consumer = consumer();
    ConsumerGroupMetadata metadata =
        ConnectConsumerAccess.groupMetadata(new RuntimeLikeContext(consumer)).get();
    assertThat(metadata).isEqualTo(consumer.groupMetadata());
  }

  @Test
  void findsTheFieldInASuperclass() {
    MockConsumer<byte[], byte[]> consumer = consumer();
    assertThat(ConnectConsumerAccess.consumerOf(new SubclassedContext(consumer)))
        .isSameAs(consumer);
  }

  @Test
  void failsWithAClearMessageWhenTheRuntimeDiffers() {
    assertThatThrownBy(() -> ConnectConsumerAccess.groupMetadata(new EmptyContext()))
        .isInstanceOf(ConnectException.class)
        .hasMessageContaining("group metadata")
        .hasMessageContaining("has no field 'consumer'")
        .hasMessageContaining("3.9, 4.3 and 4.4");
    assertThatThrownBy(() -> ConnectConsumerAccess.groupMetadata(new RuntimeLikeContext(null)))
        .isInstanceOf(ConnectException.class)
        .hasMessageContaining("is null");
  }
}
