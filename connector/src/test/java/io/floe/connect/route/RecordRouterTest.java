/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.route;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.connect.config.FloeSinkConfig;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;

class RecordRouterTest {
  private static final Schema SOURCE =
      SchemaBuilder.struct().field("table", Schema.OPTIONAL_STRING_SCHEMA).optional().build();
  private static final Schema VALUE =
      SchemaBuilder.struct()
          .field("type", Schema.OPTIONAL_STRING_SCHEMA)
          .field("source", SOURCE)
          .field("n", Schema.OPTIONAL_INT32_SCHEMA)
          .build();

  private static FloeSinkConfig config(Map<String, String> extra) {
    Map<String, String> props = new HashMap<>(extra);
    props.put("iceberg.catalog.type", "rest");
    return new FloeSinkConfig(props);
  }

  private static SinkRecord record(Object value) {
    return new SinkRecord(
        "events", 3, null, "k", value instanceof Struct ? VALUE : null, value, 42L);
  }

  private static Struct struct(String type, String sourceTable) {
    Struct value = new Struct(VALUE).put("type", type);
    if (sourceTable != null) {
      value.put("source", new Struct(SOURCE).put("table", sourceTable));
    }
    return value;
  }

  @Test
  void withoutARouteFieldEveryRecordGoesToEveryTable() {
    RecordRouter router = RecordRouter.from(config(Map.of("iceberg.tables", "db.a, db.b")));
    assertThat(router.route(record(struct("x", null)))).containsExactly("db.a", "db.b");
    assertThat(router.route(record(null))).containsExactly("db.a", "db.b");
  }

  @Test
  void routeRulesMatchTheWholeValue() {
    RecordRouter router =
        RecordRouter.from(
            config(
                Map.of(
                    "iceberg.tables", "db.views,db.buys,db.all",
                    "iceberg.tables.route-field", "type",
                    "iceberg.table.db.views.route-regex", "view",
                    "iceberg.table.db.buys.route-regex", "buy|refund",
                    "iceberg.table.db.all.route-regex", ".*")));
    assertThat(router.route(record(struct("view", null)))).containsExactly("db.views", "db.all");
    assertThat(router.route(record(struct("refund", null)))).containsExactly("db.buys", "db.all");
    assertThat(router.route(record(struct("review", null)))).containsExactly("db.all");
  }

  @Test
  void aValueMatchingNoRuleIsABadRecordNamingItsOrigin() {
    RecordRouter router =
        RecordRouter.from(
            config(
                Map.of(
                    "iceberg.tables", "db.views",
                    "iceberg.tables.route-field", "type",
                    "iceberg.table.db.views.route-regex", "view")));
    assertThatThrownBy(() -> router.route(record(struct("secret-value", null))))
        .isInstanceOf(RoutingException.class)
        .hasMessageContaining("topic events, partition 3, offset 42")
        .hasMessageContaining("'type'")
        .hasMessageNotContaining("secret-value");
  }

  @Test
  void dynamicRoutingFollowsANestedPathInStructsAndMaps() {
    RecordRouter router =
        RecordRouter.from(
            config(
                Map.of(
                    "iceberg.tables.dynamic-enabled", "true",
                    "iceberg.tables.route-field", "source.table")));
    assertThat(router.route(record(struct("x", "db.orders")))).containsExactly("db.orders");
    Map<String, Object> schemaless = Map.of("source", Map.of("table", "db.users"));
    assertThat(router.route(record(schemaless))).containsExactly("db.users");
  }

  @Test
  void aMissingNullOrNonScalarRouteValueIsABadRecord() {
    RecordRouter router =
        RecordRouter.from(
            config(
                Map.of(
                    "iceberg.tables.dynamic-enabled", "true",
                    "iceberg.tables.route-field", "source.table")));
    assertThatThrownBy(() -> router.route(record(struct("x", null))))
        .isInstanceOf(RoutingException.class)
        .hasMessageContaining("missing or null");
    assertThatThrownBy(() -> router.route(record(Map.of("other", 1))))
        .isInstanceOf(RoutingException.class);
    assertThatThrownBy(() -> router.route(record(Map.of("source", List.of("a")))))
        .isInstanceOf(RoutingException.class)
        .hasMessageContaining("goes through a");
    assertThatThrownBy(() -> router.route(record(Map.of("source", Map.of("table", Map.of())))))
        .isInstanceOf(RoutingException.class)
        .hasMessageContaining("not a scalar");
    assertThatThrownBy(() -> router.route(record(null)))
        .isInstanceOf(RoutingException.class)
        .hasMessageContaining("no value");
    assertThatThrownBy(() -> router.route(record(Map.of("source", Map.of("table", " ")))))
        .isInstanceOf(RoutingException.class)
        .hasMessageContaining("empty");
  }

  @Test
  void routesByTheOriginalTopicPartitionOffsetAfterRenamingTransforms() {
    RecordRouter router =
        RecordRouter.from(
            config(
                Map.of(
                    "iceberg.tables.dynamic-enabled", "true",
                    "iceberg.tables.route-field", "source.table")));
    SinkRecord original = record(Map.of());
    SinkRecord renamed =
        original.newRecord("renamed", 0, null, "k", null, Map.of(), original.timestamp());
    assertThatThrownBy(() -> router.route(renamed))
        .hasMessageContaining("topic events, partition 3, offset 42");
  }

  @Test
  void rejectsEmptyPathSegments() {
    assertThatThrownBy(() -> RouteField.of("a..b")).isInstanceOf(IllegalArgumentException.class);
    assertThat(RouteField.of("a.b").segments()).containsExactly("a", "b");
  }
}
