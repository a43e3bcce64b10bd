/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.config;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.config.ConfigValue;

/**
 * The keys Connect defines and Floe reads: the connector's name, its source topics, its bad-record
 * handling and its consumer overrides ({@link SourceConsumer}), and the task index the connector
 * adds to each task's configuration. They are not in Floe's {@code ConfigDef}, so they are read
 * from the configuration as given.
 *
 * @param connectorName the connector's name ({@code floe} when none is given)
 * @param taskIndex this task's number (0 outside a task)
 * @param toleratesErrors whether bad records are tolerated ({@code errors.tolerance=all})
 * @param deadLetterTopic the dead-letter topic, if there is one
 * @param sourceTopics the topics listed in {@code topics}
 * @param sourceTopicsRegex the {@code topics.regex}, if set
 */
public record ConnectKeys(
    String connectorName,
    int taskIndex,
    boolean toleratesErrors,
    Optional<String> deadLetterTopic,
    List<String> sourceTopics,
    Optional<String> sourceTopicsRegex) {

  public static final String NAME = "name";
  public static final String NAME_DEFAULT = "floe";
  public static final String TOPICS = "topics";
  public static final String TOPICS_REGEX = "topics.regex";
  public static final String ERRORS_TOLERANCE = "errors.tolerance";
  public static final String DEAD_LETTER_TOPIC = "errors.deadletterqueue.topic.name";

  /** Set by the connector on each task's configuration: the task's number, from 0. */
  public static final String TASK_INDEX = "floe.task.index";

  public ConnectKeys {
    sourceTopics = List.copyOf(sourceTopics);
  }

  static ConnectKeys parse(Map<String, String> props) {
    String name = props.get(NAME);
    String index = props.get(TASK_INDEX);
    String topics = props.get(TOPICS);
    return new ConnectKeys(
        name == null || name.isBlank() ? NAME_DEFAULT : name,
        index == null ? 0 : Integer.parseInt(index),
        "all".equalsIgnoreCase(props.getOrDefault(ERRORS_TOLERANCE, "none").trim()),
        nonBlank(props.get(DEAD_LETTER_TOPIC)).map(String::trim),
        topics == null
            ? List.of()
            : Arrays.stream(topics.split(",")).map(String::trim).filter(t -> !t.isEmpty()).toList(),
        nonBlank(props.get(TOPICS_REGEX)));
  }

  /** Consumer overrides that keep exactly once. */
  static void check(Map<String, ConfigValue> values, Map<String, String> props) {
    SourceConsumer.problems(props)
        .forEach((key, problem) -> ConfigValidation.error(values, key, problem));
  }

  private static Optional<String> nonBlank(String value) {
    return value == null || value.isBlank() ? Optional.empty() : Optional.of(value);
  }
}
