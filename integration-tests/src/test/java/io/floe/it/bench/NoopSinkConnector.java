/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.bench;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.sink.SinkConnector;

/**
 * A sink that drops every record: the ceiling of what the Connect framework and the value converter
 * allow. Installed on the benchmark worker as a plugin of its own ({@link NoopPlugin}).
 */
public class NoopSinkConnector extends SinkConnector {
  private Map<String, String> props;

  @Override
  public void start(Map<String, String> props) {
    this.props = props;
  }

  @Override
  public Class<? extends Task> taskClass() {
    return NoopSinkTask.class;
  }

  @Override
  public List<Map<String, String>> taskConfigs(int maxTasks) {
    return Collections.nCopies(maxTasks, props);
  }

  @Override
  public void stop() {}

  @Override
  public ConfigDef config() {
    return new ConfigDef()
        .define(
            NoopSinkTask.EXPECTED_RECORDS,
            ConfigDef.Type.LONG,
            ConfigDef.Importance.HIGH,
            "Records after which the task reports")
        .define(
            NoopSinkTask.REPORT_FILE,
            ConfigDef.Type.STRING,
            ConfigDef.Importance.HIGH,
            "File the task writes the wall-clock time of its last expected record to");
  }

  @Override
  public String version() {
    return "1";
  }
}
