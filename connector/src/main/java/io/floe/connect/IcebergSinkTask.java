/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect;

import io.floe.connect.catalog.CatalogLoader;
import io.floe.connect.commit.ConnectConsumerAccess;
import io.floe.connect.config.FloeSinkConfig;
import java.io.Closeable;
import java.io.IOException;
import java.util.Collection;
import java.util.Map;
import org.apache.iceberg.catalog.Catalog;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTask;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A Floe sink task. Lifecycle only: it wires the parts together and delegates to them. */
public class IcebergSinkTask extends SinkTask {
  private static final Logger LOG = LoggerFactory.getLogger(IcebergSinkTask.class);

  private Catalog catalog;

  @Override
  public String version() {
    return FloeVersion.get();
  }

  @Override
  public void start(Map<String, String> props) {
    FloeSinkConfig config = new FloeSinkConfig(props);
    // Fail at start, not at the first commit, if this runtime hides what fencing needs.
    ConsumerGroupMetadata group = ConnectConsumerAccess.groupMetadata(context).get();
    LOG.info("Connect consumer group metadata reachable (group {})", group.groupId());
    catalog = new CatalogLoader().load(config);
    LOG.info("Started Floe {} sink task, catalog '{}'", version(), catalog.name());
  }

  @Override
  public void put(Collection<SinkRecord> records) {
    if (records.isEmpty()) {
      return;
    }
    // Offsets are never committed by this build (preCommit returns nothing), so failing here
    // loses nothing: the records are delivered again once a build with a write path runs.
    SinkRecord first = records.iterator().next();
    throw new ConnectException(
        String.format(
            "Floe %s has no write path yet: refusing %d record(s) starting at topic %s,"
                + " partition %d, offset %d. Nothing was written and no offset was committed.",
            version(),
            records.size(),
            first.originalTopic(),
            first.originalKafkaPartition(),
            first.originalKafkaOffset()));
  }

  @Override
  public Map<TopicPartition, OffsetAndMetadata> preCommit(
      Map<TopicPartition, OffsetAndMetadata> currentOffsets) {
    // Source offsets advance only inside the commit protocol's Kafka transactions, never here.
    return Map.of();
  }

  @Override
  public void stop() {
    if (catalog instanceof Closeable closeable) {
      try {
        closeable.close();
      } catch (IOException e) {
        LOG.warn("Closing catalog '{}' failed", catalog.name(), e);
      }
    }
    catalog = null;
    LOG.info("Stopped Floe sink task");
  }
}
