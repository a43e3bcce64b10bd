/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect;

import io.floe.connect.catalog.Namespaces;
import io.floe.connect.config.ClearTextSecrets;
import io.floe.connect.config.ConfigValidation;
import io.floe.connect.config.ConnectKeys;
import io.floe.connect.config.FloeSinkConfig;
import io.floe.connect.config.SourceConsumer;
import io.floe.connect.config.SourceIsolation;
import io.floe.connect.config.WorkerKafka;
import io.floe.connect.version.FloeVersion;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.SinkConnector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Floe's Kafka Connect sink connector: streams topics into Apache Iceberg tables. */
public class IcebergSinkConnector extends SinkConnector {
  private static final Logger LOG = LoggerFactory.getLogger(IcebergSinkConnector.class);

  private final WorkerKafka worker;
  private Map<String, String> props;
  private Thread registryCheck;

  public IcebergSinkConnector() {
    this(WorkerKafka.ofThisProcess());
  }

  /**
   * @param worker what Floe can learn of the Connect worker it runs in
   */
  IcebergSinkConnector(WorkerKafka worker) {
    this.worker = worker;
  }

  @Override
  public String version() {
    return FloeVersion.get();
  }

  @Override
  public void start(Map<String, String> props) {
    FloeSinkConfig config = new FloeSinkConfig(props);
    Map<String, String> problems = new LinkedHashMap<>(SourceConsumer.problems(props));
    problems.putAll(config.apacheSinkProblems());
    if (!problems.isEmpty()) {
      Map.Entry<String, String> first = problems.entrySet().iterator().next();
      throw new ConnectException(first.getKey() + ": " + first.getValue());
    }
    if (!SourceIsolation.setInConnector(props)) {
      LOG.warn(SourceIsolation.unsetWarning());
    }
    config.apacheSinkWarnings().forEach(LOG::warn);
    ClearTextSecrets credentials = ClearTextSecrets.of(props, worker);
    credentials.warning().ifPresent(LOG::warn);
    credentials.note().ifPresent(LOG::info);
    registryCheck = RegistryContractCheck.startFor(props, config).orElse(null);
    // before any task runs: tasks creating one namespace at once can lose a table's metadata
    Namespaces.createListed(config);
    this.props = Map.copyOf(props);
    LOG.info(
        "Starting Floe {} sink connector: tables={}, dynamic={}, catalog={}",
        version(),
        config.tables(),
        config.dynamicTablesEnabled(),
        config.catalogName());
  }

  @Override
  public Class<? extends Task> taskClass() {
    return IcebergSinkTask.class;
  }

  @Override
  public List<Map<String, String>> taskConfigs(int maxTasks) {
    List<Map<String, String>> configs = new ArrayList<>(maxTasks);
    for (int i = 0; i < maxTasks; i++) {
      Map<String, String> task = new HashMap<>(props);
      task.put(ConnectKeys.TASK_INDEX, Integer.toString(i));
      configs.add(task);
    }
    return configs;
  }

  @Override
  public void stop() {
    LOG.info("Stopping Floe sink connector");
    if (registryCheck != null) {
      registryCheck.interrupt();
    }
  }

  @Override
  public ConfigDef config() {
    return FloeSinkConfig.CONFIG_DEF;
  }

  @Override
  public Config validate(Map<String, String> connectorConfigs) {
    return ConfigValidation.addCrossFieldErrors(super.validate(connectorConfigs), connectorConfigs);
  }
}
