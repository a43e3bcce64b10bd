/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.commit;

import java.lang.reflect.Field;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.SinkTaskContext;

/**
 * The one seam into the Connect runtime: the group metadata of the consumer Connect runs for a sink
 * task. A worker commits its source offsets inside its Kafka transaction with {@code
 * sendOffsetsToTransaction(offsets, groupMetadata)}, and the metadata's generation is what fences a
 * zombie worker after a rebalance. The public Connect API does not expose it.
 *
 * <p>The runtime's {@code SinkTaskContext} ({@code WorkerSinkTaskContext}) holds the consumer in a
 * private field named {@code consumer} in Connect 3.9, 4.3 and 4.4 alike; this class reads it by
 * reflection (the plugin runs in the unnamed module, so no JVM flag is needed). If a runtime moves
 * it, the task fails at start with this class's message: losing fencing in silence is not an
 * option.
 */
public final class ConnectConsumerAccess {
  static final String FIELD = "consumer";

  private ConnectConsumerAccess() {}

  /**
   * A live view of the task consumer's group metadata (read it when building each transaction; the
   * generation changes with every rebalance).
   *
   * @throws ConnectException naming the context class when the consumer cannot be reached
   */
  public static Supplier<ConsumerGroupMetadata> groupMetadata(SinkTaskContext context) {
    Consumer<?, ?> consumer = consumerOf(context);
    return consumer::groupMetadata;
  }

  static Consumer<?, ?> consumerOf(SinkTaskContext context) {
    if (context == null) {
      throw unavailable("no task context was given");
    }
    for (Class<?> type = context.getClass(); type != null; type = type.getSuperclass()) {
      Field field;
      try {
        field = type.getDeclaredField(FIELD);
      } catch (NoSuchFieldException e) {
        continue;
      }
      if (!Consumer.class.isAssignableFrom(field.getType())) {
        throw unavailable(
            type.getName()
                + "."
                + FIELD
                + " is a "
                + field.getType().getName()
                + ", not a Consumer");
      }
      try {
        field.setAccessible(true);
        Object consumer = field.get(context);
        if (consumer == null) {
          throw unavailable(type.getName() + "." + FIELD + " is null");
        }
        return (Consumer<?, ?>) consumer;
      } catch (ReflectiveOperationException | RuntimeException e) {
        if (e instanceof ConnectException connect) {
          throw connect;
        }
        throw unavailable("reading " + type.getName() + "." + FIELD + " failed: " + e);
      }
    }
    throw unavailable(context.getClass().getName() + " has no field '" + FIELD + "'");
  }

  private static ConnectException unavailable(String reason) {
    return new ConnectException(
        "Floe cannot reach the Connect consumer's group metadata, which exactly-once offset"
            + " commits need for fencing ("
            + reason
            + "). This Connect runtime is not supported; Floe supports Kafka Connect 3.9, 4.3 and"
            + " 4.4.");
  }
}
