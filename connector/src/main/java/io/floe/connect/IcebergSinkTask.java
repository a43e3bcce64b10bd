/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect;

import io.floe.connect.catalog.CatalogLoader;
import io.floe.connect.catalog.TableProvider;
import io.floe.connect.commit.Committer;
import io.floe.connect.config.FloeSinkConfig;
import io.floe.connect.control.ConfiguredKafkaClients;
import io.floe.connect.convert.ConvertOptions;
import io.floe.connect.errors.FailFastOutcomes;
import io.floe.connect.write.SinkWriter;
import io.floe.connect.write.WriterPool;
import io.floe.connect.write.WriterPoolOptions;
import java.io.Closeable;
import java.io.IOException;
import java.time.Clock;
import java.util.Collection;
import java.util.Map;
import org.apache.iceberg.catalog.Catalog;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTask;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A Floe sink task. Lifecycle only: it wires the parts together and delegates to them. */
public class IcebergSinkTask extends SinkTask {
  private static final Logger LOG = LoggerFactory.getLogger(IcebergSinkTask.class);

  private Catalog catalog;
  private Committer committer;

  @Override
  public String version() {
    return FloeVersion.get();
  }

  @Override
  public void start(Map<String, String> props) {
    FloeSinkConfig config = new FloeSinkConfig(props);
    catalog = new CatalogLoader().load(config);
    FailFastOutcomes outcomes = new FailFastOutcomes();
    SinkWriter writer =
        new SinkWriter(
            config,
            new TableProvider(catalog, config),
            new WriterPool(
                new WriterPoolOptions(
                    config.writerMemoryBudgetBytes(), config.writerMaxOpenFiles()),
                config.writeProperties(),
                config.taskIndex()),
            ConvertOptions.defaults(),
            outcomes);
    committer =
        new Committer(
            config,
            catalog,
            context,
            new ConfiguredKafkaClients(config.kafkaProperties()),
            Clock.systemUTC());
    committer.start(writer, outcomes::awaitReported);
    LOG.info(
        "Started Floe {} sink task {}, catalog '{}'",
        version(),
        config.taskIndex(),
        catalog.name());
  }

  @Override
  public void open(Collection<TopicPartition> partitions) {
    committer.open(partitions);
  }

  @Override
  public void close(Collection<TopicPartition> partitions) {
    committer.close(partitions);
  }

  @Override
  public void put(Collection<SinkRecord> records) {
    committer.put(records);
  }

  @Override
  public Map<TopicPartition, OffsetAndMetadata> preCommit(
      Map<TopicPartition, OffsetAndMetadata> currentOffsets) {
    // Source offsets advance only inside the commit protocol's Kafka transactions, never here;
    // this is also where an idle task notices a failed control thread.
    committer.checkHealthy();
    return Map.of();
  }

  @Override
  public void stop() {
    if (committer != null) {
      committer.close();
      committer = null;
    }
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
