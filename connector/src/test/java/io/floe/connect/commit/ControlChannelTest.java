/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.commit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.connect.control.ControlChannel;
import io.floe.connect.control.StartCommit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TransactionalIdAuthorizationException;
import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ControlChannelTest {
  private static final String TXN = "floe-orders-worker-0";
  private static final String GROUP = "connect-orders";
  private static final TopicPartition SOURCE = new TopicPartition("orders", 0);

  private final InMemoryControlTopic control = new InMemoryControlTopic();
  private final ControlChannel channel =
      ControlChannel.fromEnd(control, control.topic(), TXN, "worker", "orders-0", "orders-0");

  @AfterEach
  void close() {
    channel.close();
  }

  private MockProducer<byte[], byte[]> producer() {
    return control.producer(TXN);
  }

  private ControlChannel.Sent sendOne() {
    return channel.send(
        List.of(channel.record(GROUP, 1L, new StartCommit(UUID.randomUUID()))),
        Map.of(SOURCE, new OffsetAndMetadata(7)),
        new ConsumerGroupMetadata(GROUP));
  }

  @Test
  void aTransactionCarriesItsEventsAndOffsets() {
    assertThat(sendOne().outcome()).isEqualTo(ControlChannel.Outcome.COMMITTED);
    assertThat(control.events(GROUP, StartCommit.class)).hasSize(1);
    assertThat(control.committedOffsets(GROUP)).isEqualTo(Map.of(SOURCE, new OffsetAndMetadata(7)));
  }

  @Test
  void aFailedCommitIsAbortedAndReported() {
    producer().commitTransactionException = new KafkaException("broker unreachable");
    ControlChannel.Sent sent = sendOne();
    assertThat(sent.outcome()).isEqualTo(ControlChannel.Outcome.ABORTED);
    assertThat(sent.cause()).hasMessage("broker unreachable");
    assertThat(producer().transactionAborted()).isTrue();
  }

  @Test
  void aRefusedConsumerGroupIsNamedWithTheAclToGrant() {
    producer().sendOffsetsToTransactionException = GroupAuthorizationException.forGroupId(GROUP);
    assertThatThrownBy(this::sendOne)
        .isInstanceOf(ConnectException.class)
        .hasMessageContaining("not authorised to use the consumer group " + GROUP)
        .hasMessageContaining("READ on group " + GROUP);
    assertThat(control.committedOffsets(GROUP)).isEmpty();
  }

  @Test
  void aCommitThatTimesOutIsUnknownKeptOpenAndCanBeAskedAgain() {
    producer().commitTransactionException = new TimeoutException("no answer");
    assertThat(sendOne().outcome()).isEqualTo(ControlChannel.Outcome.UNKNOWN);
    assertThat(producer().transactionAborted()).isFalse();

    producer().commitTransactionException = null;
    assertThat(channel.commitAgain().committed()).isTrue();
    assertThat(control.committedOffsets(GROUP)).isEqualTo(Map.of(SOURCE, new OffsetAndMetadata(7)));
  }

  @Test
  void fencingIsThrownAsKafkaThrowsIt() {
    producer().fenceProducer();
    assertThatThrownBy(this::sendOne).isInstanceOf(ProducerFencedException.class);
  }

  @Test
  void aMissingPermissionNamesTheTransactionalIdAndWhatToGrant() {
    producer().commitTransactionException =
        new TransactionalIdAuthorizationException("Transactional Id authorization failed.");
    assertThatThrownBy(this::sendOne)
        .isInstanceOf(ConnectException.class)
        .hasMessageContaining("not authorised to use the transactional id " + TXN)
        .hasMessageContaining("Grant the connector's principal WRITE on transactional id " + TXN)
        .hasMessageContaining("iceberg.control.transactional-id-prefix");
    assertThat(producer().transactionAborted()).isTrue();
  }
}
