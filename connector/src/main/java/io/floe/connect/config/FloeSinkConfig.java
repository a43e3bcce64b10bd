/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.config;

import io.floe.connect.convert.ConvertOptions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

/**
 * The connector's configuration: the one {@link ConfigDef}, assembled from the key groups, and
 * typed getters over them. Each group ({@link RoutingKeys}, {@link TableKeys}, {@link WriterKeys},
 * {@link CatalogKeys}, {@link CommitKeys}, {@link KafkaKeys}, {@code ConversionKeys}, and Connect's
 * own keys in {@link ConnectKeys}) defines its keys, parses their values and owns the rules that
 * span them. Names follow the Apache Iceberg sink where the concept is the same, so moving from it
 * is a change of {@code connector.class}.
 */
public final class FloeSinkConfig extends AbstractConfig {

  /** Every key, in the order of the configuration reference: by group, then within a group. */
  public static final ConfigDef CONFIG_DEF = newConfigDef();

  private final Map<String, String> props;
  private final Secrets secrets;
  private final RoutingKeys routing;
  private final TableKeys tables;
  private final WriterKeys writer;
  private final UpsertKeys upsert;
  private final MaintenanceKeys maintenance;
  private final CatalogKeys catalog;
  private final CommitKeys commit;
  private final KafkaKeys kafka;
  private final ConnectKeys connect;
  private final Map<String, TableConfig> tableConfigs = new ConcurrentHashMap<>();

  public FloeSinkConfig(Map<String, String> originals) {
    super(CONFIG_DEF, originals, false);
    this.props = Map.copyOf(originals);
    this.secrets = Secrets.of(props);
    this.routing = RoutingKeys.parse(this);
    this.tables = TableKeys.parse(this);
    this.writer = WriterKeys.parse(this);
    this.upsert = UpsertKeys.parse(this);
    this.maintenance = MaintenanceKeys.parse(this);
    this.catalog = CatalogKeys.parse(this);
    this.commit = CommitKeys.parse(this);
    this.kafka = KafkaKeys.parse(this);
    this.connect = ConnectKeys.parse(props);
  }

  private static ConfigDef newConfigDef() {
    ConfigDef def = new ConfigDef();
    RoutingKeys.define(def);
    WriterKeys.define(def, TableKeys.define(def)); // one group, "Tables"
    UpsertKeys.define(def);
    MaintenanceKeys.define(def);
    CatalogKeys.define(def);
    KafkaKeys.define(def, CommitKeys.define(def)); // one group, "Commit"
    ConversionKeys.define(def);
    ApacheSinkKeys.define(def);
    return def;
  }

  /** How record values become Iceberg values, from the {@code iceberg.tables.*} conversion keys. */
  public ConvertOptions convertOptions() {
    return ConversionKeys.options(this);
  }

  /** Whether a tombstone is a bad record ({@code iceberg.tables.tombstones=fail}). */
  public boolean failOnTombstones() {
    return ConversionKeys.tombstones(this) == ConversionKeys.Tombstones.FAIL;
  }

  /** The secret values of this configuration, to mask them in logs and errors. */
  public Secrets secrets() {
    return secrets;
  }

  /** Whether the connector tolerates bad records ({@code errors.tolerance=all}). */
  public boolean toleratesErrors() {
    return connect.toleratesErrors();
  }

  /** The connector's dead-letter topic, if it has one. */
  public Optional<String> deadLetterTopic() {
    return connect.deadLetterTopic();
  }

  public List<String> tables() {
    return routing.tables();
  }

  public boolean dynamicTablesEnabled() {
    return routing.dynamicEnabled();
  }

  public Optional<String> routeField() {
    return routing.routeField();
  }

  /**
   * The settings of {@code table}: its {@code iceberg.table.<table>.*} keys over the defaults.
   *
   * @throws IllegalArgumentException naming the key whose value is invalid
   */
  public TableConfig tableConfig(String table) {
    return tableConfigs.computeIfAbsent(
        table, t -> TableConfig.parse(t, props, tables, upsert, maintenance));
  }

  /**
   * Whether any table may be in upsert mode: by {@code iceberg.tables.upsert-mode-enabled}, or by a
   * table's own {@code upsert-mode-enabled}. When not, the write path does no upsert work at all.
   */
  public boolean upsertModeUsed() {
    if (upsert.enabled()) {
      return true;
    }
    for (Map.Entry<String, String> prop : props.entrySet()) {
      boolean own =
          TableConfig.split(prop.getKey())
              .map(parts -> parts.getValue().equals(TableConfig.UPSERT_MODE_ENABLED))
              .orElse(false);
      if (own && prop.getValue().trim().equalsIgnoreCase("true")) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether the coordinator keeps a key index for {@code table}: in upsert mode, with {@code
   * upsert-key-index-enabled}, its own or the connector's.
   *
   * @throws IllegalArgumentException naming the key whose value is invalid
   */
  public boolean upsertKeyIndexEnabled(String table) {
    return tableConfig(table).upsertKeyIndex();
  }

  /**
   * The branch {@code table}'s commits go to ({@code commit-branch}, its own or the connector's).
   *
   * @throws IllegalArgumentException naming the key whose value is invalid
   */
  public String commitBranch(String table) {
    return tableConfig(table).commitBranch();
  }

  /** The coordinator's table maintenance ({@code iceberg.maintenance.*}). */
  public MaintenanceKeys maintenance() {
    return maintenance;
  }

  /** Whether the coordinator maintains {@code table} ({@code maintenance-enabled}). */
  public boolean maintenanceEnabled(String table) {
    return tableConfig(table).maintained();
  }

  /** The most bytes one table's key index may take ({@code upsert-key-index-max-memory-mb}). */
  public long upsertKeyIndexMaxBytes() {
    return upsert.keyIndexMaxBytes();
  }

  public boolean evolveSchemaEnabled() {
    return tables.evolveSchemaEnabled();
  }

  public boolean autoCreateEnabled() {
    return tables.autoCreateEnabled();
  }

  /** Table properties for auto-created tables, from {@code iceberg.tables.auto-create-props.*}. */
  public Map<String, String> autoCreateProperties() {
    return tables.autoCreateProperties();
  }

  /** The name of the Kafka metadata column, if rows get one. */
  public Optional<String> kafkaMetadataColumn() {
    return tables.kafkaMetadataColumn();
  }

  public String catalogName() {
    return catalog.name();
  }

  public Optional<CatalogType> catalogType() {
    return catalog.type();
  }

  public Optional<String> catalogImpl() {
    return catalog.impl();
  }

  /**
   * The {@code iceberg.catalog.*} properties with the prefix removed, as the catalog takes them.
   */
  public Map<String, String> catalogProperties() {
    return catalog.properties();
  }

  /** The directory of Hadoop configuration files ({@code iceberg.hadoop-conf-dir}), if set. */
  public Optional<String> hadoopConfDir() {
    return catalog.hadoopConfDir();
  }

  /** The {@code iceberg.hadoop.*} properties with the prefix removed, sorted. */
  public Map<String, String> hadoopProperties() {
    return catalog.hadoopProperties();
  }

  public String controlTopic() {
    return commit.controlTopic();
  }

  public Duration commitInterval() {
    return commit.commitInterval();
  }

  /**
   * The commit timeout: as set, or when unset the default, shortened to half the interval when that
   * is shorter (so an interval of 30 s or less needs no timeout of its own).
   */
  public Duration commitTimeout() {
    return commit.commitTimeout();
  }

  public Duration commitRetryTimeout() {
    return commit.commitRetryTimeout();
  }

  public int commitMaxSilentCycles() {
    return commit.commitMaxSilentCycles();
  }

  public long commitBufferBytes() {
    return commit.commitBufferBytes();
  }

  public String transactionalIdPrefix() {
    return commit.transactionalIdPrefix();
  }

  /**
   * Client properties of the control-topic producer and consumers: every {@code iceberg.kafka.*}
   * key with the prefix removed, over the worker's own client settings when {@code
   * iceberg.kafka.bootstrap.servers} is not set.
   */
  public Map<String, Object> kafkaProperties() {
    return kafkaProperties(WorkerKafka.ofThisProcess());
  }

  Map<String, Object> kafkaProperties(WorkerKafka worker) {
    return kafka.clientProperties(worker);
  }

  /**
   * The bootstrap servers of the control clients.
   *
   * @throws ConfigException when unset and not found from the worker: the commit protocol cannot
   *     run without them
   */
  public String kafkaBootstrapServers() {
    return kafkaBootstrapServers(WorkerKafka.ofThisProcess());
  }

  String kafkaBootstrapServers(WorkerKafka worker) {
    return kafka.bootstrapServers(worker);
  }

  /** Where the control clients' bootstrap servers come from, for the logs. */
  public String kafkaBootstrapSource() {
    return kafka.bootstrapSource(WorkerKafka.ofThisProcess());
  }

  /** Writer properties laid over every table's own, from {@code iceberg.tables.write-props.*}. */
  public Map<String, String> writeProperties() {
    return writer.writeProperties();
  }

  public long writerMemoryBudgetBytes() {
    return writer.memoryBudgetBytes();
  }

  public int writerMaxOpenFiles() {
    return writer.maxOpenFiles();
  }

  public boolean writerFilePerSourcePartition() {
    return writer.filePerSourcePartition();
  }

  /**
   * One warning for each Apache Iceberg sink key of this configuration that Floe accepts and does
   * not use, saying what Floe does instead.
   */
  public List<String> apacheSinkWarnings() {
    return ApacheSinkKeys.warnings(props);
  }

  /**
   * What is wrong with this configuration's Apache Iceberg sink keys, by key: values that would
   * have Floe read or commit elsewhere than the configuration says. Empty when nothing is.
   */
  public Map<String, String> apacheSinkProblems() {
    return ApacheSinkKeys.problems(props);
  }

  /** The source topics from the connector's {@code topics} key, when it lists them. */
  public List<String> sourceTopics() {
    return connect.sourceTopics();
  }

  /** The connector's {@code topics.regex}, if it has one. */
  public Optional<String> sourceTopicsRegex() {
    return connect.sourceTopicsRegex();
  }

  /** This task's number (0 outside a task). */
  public int taskIndex() {
    return connect.taskIndex();
  }

  /** The connector's name, as Connect passes it to tasks. */
  public String connectorName() {
    return connect.connectorName();
  }
}
