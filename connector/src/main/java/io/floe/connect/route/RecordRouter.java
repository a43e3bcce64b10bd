/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.route;

import io.floe.connect.config.FloeSinkConfig;
import io.floe.connect.config.TableConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * Picks the table(s) a record goes to. Three ways, from the configuration:
 *
 * <ul>
 *   <li>a static list without a route field: every record to every listed table;
 *   <li>a static list with a route field: to each table whose {@code route-regex} matches the route
 *       value (the whole value must match);
 *   <li>dynamic: the route value is the table's name.
 * </ul>
 *
 * A record that goes nowhere is never skipped in silence: {@link #route} throws a {@link
 * RoutingException} for the bad-record policy.
 */
public abstract sealed class RecordRouter {

  /** The tables {@code record} goes to; never empty. */
  public abstract List<String> route(SinkRecord record);

  public static RecordRouter from(FloeSinkConfig config) {
    if (config.dynamicTablesEnabled()) {
      return new Dynamic(RouteField.of(config.routeField().orElseThrow()));
    }
    List<String> tables = List.copyOf(config.tables());
    if (config.routeField().isEmpty()) {
      return new AllTables(tables);
    }
    List<Rule> rules = new ArrayList<>();
    for (String table : tables) {
      TableConfig tableConfig = config.tableConfig(table);
      tableConfig.routeRegex().ifPresent(regex -> rules.add(new Rule(table, regex)));
    }
    return new ByRegex(RouteField.of(config.routeField().get()), rules);
  }

  /** Every record to every listed table. */
  static final class AllTables extends RecordRouter {
    private final List<String> tables;

    AllTables(List<String> tables) {
      this.tables = List.copyOf(tables);
    }

    @Override
    public List<String> route(SinkRecord record) {
      return tables;
    }
  }

  record Rule(String table, Pattern regex) {}

  /** To each table whose rule matches the route value. */
  static final class ByRegex extends RecordRouter {
    private final RouteField field;
    private final List<Rule> rules;

    ByRegex(RouteField field, List<Rule> rules) {
      this.field = field;
      this.rules = List.copyOf(rules);
    }

    @Override
    public List<String> route(SinkRecord record) {
      String value = routeValue(field, record);
      List<String> tables = new ArrayList<>(1);
      for (Rule rule : rules) {
        if (rule.regex().matcher(value).matches()) {
          tables.add(rule.table());
        }
      }
      if (tables.isEmpty()) {
        throw new RoutingException(
            record, "the value of route field '" + field + "' matches no table's route-regex");
      }
      return tables;
    }
  }

  /** The route value names the table. */
  static final class Dynamic extends RecordRouter {
    private final RouteField field;

    Dynamic(RouteField field) {
      this.field = field;
    }

    @Override
    public List<String> route(SinkRecord record) {
      String table = routeValue(field, record).trim();
      if (table.isEmpty()) {
        throw new RoutingException(record, "route field '" + field + "' is empty");
      }
      return List.of(table);
    }
  }

  static String routeValue(RouteField field, SinkRecord record) {
    if (record.value() == null) {
      throw new RoutingException(
          record, "the record has no value, so no route field '" + field + "'");
    }
    Optional<String> value;
    try {
      value = field.extract(record.value());
    } catch (IllegalArgumentException e) {
      throw new RoutingException(record, e.getMessage());
    }
    return value.orElseThrow(
        () -> new RoutingException(record, "route field '" + field + "' is missing or null"));
  }
}
