/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.config;

import io.floe.connect.convert.ConvertOptions;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.ConfigException;

/**
 * The connector's configuration: the one {@link ConfigDef} and typed getters. Names follow the
 * Apache Iceberg sink where the concept is the same, so moving from it is a change of {@code
 * connector.class}.
 */
public final class FloeSinkConfig extends AbstractConfig {

  public static final String GROUP_ROUTING = "Routing";
  public static final String GROUP_TABLES = "Tables";
  public static final String GROUP_CATALOG = "Catalog";
  public static final String GROUP_COMMIT = "Commit";

  public static final String TABLES = "iceberg.tables";
  public static final String TABLES_DOC =
      "Comma-separated list of the tables to write (namespace.table). Every record goes to every"
          + " listed table unless per-table route rules are set. Leave empty with dynamic routing.";
  public static final String TABLES_DEFAULT = "";

  public static final String TABLES_DYNAMIC_ENABLED = "iceberg.tables.dynamic-enabled";
  public static final String TABLES_DYNAMIC_ENABLED_DOC =
      "When true, the value of the route field names the table each record goes to.";
  public static final boolean TABLES_DYNAMIC_ENABLED_DEFAULT = false;

  public static final String TABLES_ROUTE_FIELD = "iceberg.tables.route-field";
  public static final String TABLES_ROUTE_FIELD_DOC =
      "Dotted path of the record field whose value routes the record (a table name with dynamic"
          + " routing, or the value matched by iceberg.table.<t>.route-regex).";

  public static final String TABLES_AUTO_CREATE_ENABLED = "iceberg.tables.auto-create-enabled";
  public static final String TABLES_AUTO_CREATE_ENABLED_DOC =
      "When true, a table that does not exist is created from the first record's schema.";
  public static final boolean TABLES_AUTO_CREATE_ENABLED_DEFAULT = false;

  public static final String TABLES_EVOLVE_SCHEMA_ENABLED = "iceberg.tables.evolve-schema-enabled";
  public static final String TABLES_EVOLVE_SCHEMA_ENABLED_DOC =
      "When true, new fields, safe type widening and renames by Avro alias are applied to the"
          + " table's schema as records need them.";
  public static final boolean TABLES_EVOLVE_SCHEMA_ENABLED_DEFAULT = false;

  public static final String TABLES_DEFAULT_PARTITION_BY = "iceberg.tables.default-partition-by";
  public static final String TABLES_DEFAULT_PARTITION_BY_DOC =
      "Partition spec of auto-created tables, as comma-separated terms: a column name (identity),"
          + " year(c), month(c), day(c), hour(c), bucket(c, N) or truncate(c, W).";
  public static final String TABLES_DEFAULT_PARTITION_BY_DEFAULT = "";

  /** {@code iceberg.tables.auto-create-props.*}: table properties of auto-created tables. */
  public static final String AUTO_CREATE_PROPS_PREFIX = "iceberg.tables.auto-create-props.";

  public static final String CATALOG_NAME = "iceberg.catalog";
  public static final String CATALOG_NAME_DOC = "Name of the Iceberg catalog, as Iceberg sees it.";
  public static final String CATALOG_NAME_DEFAULT = "iceberg";

  /** Every {@code iceberg.catalog.*} property is handed to the catalog with the prefix removed. */
  public static final String CATALOG_PREFIX = "iceberg.catalog.";

  public static final String CATALOG_TYPE = CATALOG_PREFIX + "type";
  public static final String CATALOG_TYPE_DOC =
      "Catalog type: one of "
          + CatalogType.names()
          + ". Set this or iceberg.catalog.catalog-impl; all other iceberg.catalog.* properties"
          + " (uri, warehouse, io-impl, credentials, ...) are passed to the catalog unchanged.";

  public static final String CATALOG_IMPL = CATALOG_PREFIX + "catalog-impl";
  public static final String CATALOG_IMPL_DOC =
      "Class name of a custom org.apache.iceberg.catalog.Catalog, instead of"
          + " iceberg.catalog.type.";

  public static final String CONTROL_TOPIC = "iceberg.control.topic";
  public static final String CONTROL_TOPIC_DOC =
      "Kafka topic the workers and the coordinator exchange commit events on. Several connectors"
          + " may share it.";
  public static final String CONTROL_TOPIC_DEFAULT = "floe-control";

  public static final String COMMIT_INTERVAL_MS = "iceberg.control.commit.interval-ms";
  public static final String COMMIT_INTERVAL_MS_DOC =
      "How often, in milliseconds, the coordinator starts a commit cycle.";
  public static final long COMMIT_INTERVAL_MS_DEFAULT = 60_000L;

  public static final String COMMIT_TIMEOUT_MS = "iceberg.control.commit.timeout-ms";
  public static final String COMMIT_TIMEOUT_MS_DOC =
      "How long, in milliseconds, the coordinator waits for every worker's answer before it"
          + " commits what arrived; late answers join the next cycle. Must be below the interval;"
          + " when unset, the default or half the interval, whichever is shorter.";
  public static final long COMMIT_TIMEOUT_MS_DEFAULT = 30_000L;

  public static final String COMMIT_BUFFER_BYTES = "iceberg.control.commit.buffer-bytes";
  public static final String COMMIT_BUFFER_BYTES_DOC =
      "A worker asks for an early commit cycle when it holds this many bytes of data files not yet"
          + " handed over; the coordinator then starts the cycle before the interval ends.";
  public static final long COMMIT_BUFFER_BYTES_DEFAULT = 256L * 1024 * 1024;

  public static final String COMMIT_RETRY_TIMEOUT_MS = "iceberg.control.commit.retry-timeout-ms";
  public static final String COMMIT_RETRY_TIMEOUT_MS_DOC =
      "How long, in milliseconds, the coordinator retries a commit, and a task retries writing and"
          + " handing over its files, when they fail for a retriable reason (catalog or object store"
          + " unreachable, conflicting commit) before the task fails with the cause.";
  public static final long COMMIT_RETRY_TIMEOUT_MS_DEFAULT = 300_000L;

  public static final String COMMIT_MAX_SILENT_CYCLES = "iceberg.control.commit.max-silent-cycles";
  public static final String COMMIT_MAX_SILENT_CYCLES_DOC =
      "The coordinator fails its task, naming the partitions, when no worker has answered for a"
          + " source partition in this many consecutive commit cycles, and for at least "
          + COMMIT_RETRY_TIMEOUT_MS
          + ": nothing of such a partition is committed (its task failed, hangs or cannot hand"
          + " over). 0 turns the check off.";
  public static final int COMMIT_MAX_SILENT_CYCLES_DEFAULT = 10;

  public static final String TRANSACTIONAL_ID_PREFIX = "iceberg.control.transactional-id-prefix";
  public static final String TRANSACTIONAL_ID_PREFIX_DOC =
      "Prefix of the Kafka transactional ids of the workers and the coordinator, for clusters"
          + " whose ACLs grant transactional ids by prefix.";
  public static final String TRANSACTIONAL_ID_PREFIX_DEFAULT = "";

  /** Set by the connector on each task's configuration: the task's number, from 0. */
  public static final String TASK_INDEX = "floe.task.index";

  public static final String KAFKA_PREFIX = "iceberg.kafka.";

  public static final String KAFKA_BOOTSTRAP_SERVERS = KAFKA_PREFIX + "bootstrap.servers";
  public static final String KAFKA_BOOTSTRAP_SERVERS_DOC =
      "Bootstrap servers of the Kafka cluster that holds the Connect cluster's consumer groups: the"
          + " control topic lives there, and the workers commit their source offsets there in the"
          + " same transactions as their control events. When unset, the Connect worker's own"
          + " bootstrap servers and client security settings are used, found in "
          + WorkerKafka.whereLooked()
          + ". Other client settings of the control clients (security, SASL, TLS) go in"
          + " iceberg.kafka.* and win over the worker's.";

  public static final String KAFKA_METADATA_COLUMN = "iceberg.tables.kafka-metadata-column";
  public static final String KAFKA_METADATA_COLUMN_DOC =
      "Name of a struct column (topic, partition, offset, timestamp, key) that records where each"
          + " row came from; empty for none. Added to auto-created tables and, with schema"
          + " evolution, to existing ones.";
  public static final String KAFKA_METADATA_COLUMN_DEFAULT = "";

  public static final String WRITE_PROPS_PREFIX = "iceberg.tables.write-props.";

  public static final String WRITER_MEMORY_BUDGET_BYTES =
      "iceberg.tables.writer.memory-budget-bytes";
  public static final String WRITER_MEMORY_BUDGET_BYTES_DOC =
      "Memory a task may hold in open data files, over all tables; when exceeded, the least"
          + " recently written files are closed early (their data is committed in the next cycle).";

  public static final long WRITER_MEMORY_BUDGET_BYTES_DEFAULT = 128L * 1024 * 1024;

  public static final String WRITER_MAX_OPEN_FILES = "iceberg.tables.writer.max-open-files";
  public static final String WRITER_MAX_OPEN_FILES_DOC =
      "Most data files a task keeps open at once, over all tables and partitions.";
  public static final int WRITER_MAX_OPEN_FILES_DEFAULT = 64;

  public static final String WRITER_FILE_PER_SOURCE_PARTITION =
      "iceberg.tables.writer.file-per-source-partition";
  public static final String WRITER_FILE_PER_SOURCE_PARTITION_DOC =
      "Whether each data file holds the rows of one source partition only. Off (the default), the"
          + " rows of all of a task's source partitions share one file per table partition: fewer,"
          + " larger files and higher throughput; a partition taken away by a cooperative"
          + " rebalance then also drops the uncommitted rows of the task's other partitions, which"
          + " are read again (eager rebalancing, Connect's default, takes every partition at once"
          + " anyway). On, a revoked partition drops only its own rows, at the price of a file per"
          + " source partition and table partition in every commit.";
  public static final boolean WRITER_FILE_PER_SOURCE_PARTITION_DEFAULT = false;

  public static final ConfigDef CONFIG_DEF = newConfigDef();

  private final Map<String, String> catalogProperties;
  private final Map<String, String> props;
  private final Secrets secrets;
  private final PartitionBy defaultPartitionBy;
  private final Map<String, TableConfig> tableConfigs = new ConcurrentHashMap<>();

  public FloeSinkConfig(Map<String, String> originals) {
    super(CONFIG_DEF, originals, false);
    Map<String, String> catalogProps = new TreeMap<>();
    originalsWithPrefix(CATALOG_PREFIX, true)
        .forEach((key, value) -> catalogProps.put(key, String.valueOf(value)));
    this.catalogProperties = Collections.unmodifiableMap(catalogProps);
    this.props = Map.copyOf(originals);
    this.secrets = Secrets.of(props);
    this.defaultPartitionBy = PartitionBy.parse(getString(TABLES_DEFAULT_PARTITION_BY));
  }

  private static ConfigDef newConfigDef() {
    ConfigDef def = new ConfigDef();
    int order = 0;
    def.define(
        TABLES,
        Type.LIST,
        TABLES_DEFAULT,
        Importance.HIGH,
        TABLES_DOC,
        GROUP_ROUTING,
        ++order,
        Width.LONG,
        "Tables");
    def.define(
        TABLES_DYNAMIC_ENABLED,
        Type.BOOLEAN,
        TABLES_DYNAMIC_ENABLED_DEFAULT,
        Importance.MEDIUM,
        TABLES_DYNAMIC_ENABLED_DOC,
        GROUP_ROUTING,
        ++order,
        Width.SHORT,
        "Dynamic routing");
    def.define(
        TABLES_ROUTE_FIELD,
        Type.STRING,
        null,
        new ConfigDef.NonEmptyString(),
        Importance.MEDIUM,
        TABLES_ROUTE_FIELD_DOC,
        GROUP_ROUTING,
        ++order,
        Width.MEDIUM,
        "Route field");

    order = 0;
    def.define(
        TABLES_AUTO_CREATE_ENABLED,
        Type.BOOLEAN,
        TABLES_AUTO_CREATE_ENABLED_DEFAULT,
        Importance.MEDIUM,
        TABLES_AUTO_CREATE_ENABLED_DOC,
        GROUP_TABLES,
        ++order,
        Width.SHORT,
        "Auto-create tables");
    def.define(
        TABLES_EVOLVE_SCHEMA_ENABLED,
        Type.BOOLEAN,
        TABLES_EVOLVE_SCHEMA_ENABLED_DEFAULT,
        Importance.MEDIUM,
        TABLES_EVOLVE_SCHEMA_ENABLED_DOC,
        GROUP_TABLES,
        ++order,
        Width.SHORT,
        "Evolve schemas");
    def.define(
        TABLES_DEFAULT_PARTITION_BY,
        Type.STRING,
        TABLES_DEFAULT_PARTITION_BY_DEFAULT,
        new PartitionByValidator(),
        Importance.LOW,
        TABLES_DEFAULT_PARTITION_BY_DOC,
        GROUP_TABLES,
        ++order,
        Width.LONG,
        "Default partitioning");
    def.define(
        KAFKA_METADATA_COLUMN,
        Type.STRING,
        KAFKA_METADATA_COLUMN_DEFAULT,
        Importance.LOW,
        KAFKA_METADATA_COLUMN_DOC,
        GROUP_TABLES,
        ++order,
        Width.SHORT,
        "Kafka metadata column");
    def.define(
        WRITER_MEMORY_BUDGET_BYTES,
        Type.LONG,
        WRITER_MEMORY_BUDGET_BYTES_DEFAULT,
        ConfigDef.Range.atLeast(1024 * 1024),
        Importance.LOW,
        WRITER_MEMORY_BUDGET_BYTES_DOC,
        GROUP_TABLES,
        ++order,
        Width.SHORT,
        "Writer memory budget (bytes)");
    def.define(
        WRITER_MAX_OPEN_FILES,
        Type.INT,
        WRITER_MAX_OPEN_FILES_DEFAULT,
        ConfigDef.Range.atLeast(1),
        Importance.LOW,
        WRITER_MAX_OPEN_FILES_DOC,
        GROUP_TABLES,
        ++order,
        Width.SHORT,
        "Writer max open files");
    def.define(
        WRITER_FILE_PER_SOURCE_PARTITION,
        Type.BOOLEAN,
        WRITER_FILE_PER_SOURCE_PARTITION_DEFAULT,
        Importance.LOW,
        WRITER_FILE_PER_SOURCE_PARTITION_DOC,
        GROUP_TABLES,
        ++order,
        Width.SHORT,
        "Writer file per source partition");

    order = 0;
    def.define(
        CATALOG_NAME,
        Type.STRING,
        CATALOG_NAME_DEFAULT,
        new ConfigDef.NonEmptyString(),
        Importance.LOW,
        CATALOG_NAME_DOC,
        GROUP_CATALOG,
        ++order,
        Width.SHORT,
        "Catalog name");
    def.define(
        CATALOG_TYPE,
        Type.STRING,
        null,
        new CatalogType.Validator(),
        Importance.HIGH,
        CATALOG_TYPE_DOC,
        GROUP_CATALOG,
        ++order,
        Width.SHORT,
        "Catalog type");
    def.define(
        CATALOG_IMPL,
        Type.STRING,
        null,
        new ConfigDef.NonEmptyString(),
        Importance.MEDIUM,
        CATALOG_IMPL_DOC,
        GROUP_CATALOG,
        ++order,
        Width.LONG,
        "Catalog class");

    order = 0;
    def.define(
        CONTROL_TOPIC,
        Type.STRING,
        CONTROL_TOPIC_DEFAULT,
        new ConfigDef.NonEmptyString(),
        Importance.MEDIUM,
        CONTROL_TOPIC_DOC,
        GROUP_COMMIT,
        ++order,
        Width.MEDIUM,
        "Control topic");
    def.define(
        COMMIT_INTERVAL_MS,
        Type.LONG,
        COMMIT_INTERVAL_MS_DEFAULT,
        ConfigDef.Range.atLeast(100),
        Importance.MEDIUM,
        COMMIT_INTERVAL_MS_DOC,
        GROUP_COMMIT,
        ++order,
        Width.SHORT,
        "Commit interval (ms)");
    def.define(
        COMMIT_TIMEOUT_MS,
        Type.LONG,
        COMMIT_TIMEOUT_MS_DEFAULT,
        ConfigDef.Range.atLeast(100),
        Importance.MEDIUM,
        COMMIT_TIMEOUT_MS_DOC,
        GROUP_COMMIT,
        ++order,
        Width.SHORT,
        "Commit timeout (ms)");
    def.define(
        COMMIT_BUFFER_BYTES,
        Type.LONG,
        COMMIT_BUFFER_BYTES_DEFAULT,
        ConfigDef.Range.atLeast(1024 * 1024),
        Importance.LOW,
        COMMIT_BUFFER_BYTES_DOC,
        GROUP_COMMIT,
        ++order,
        Width.SHORT,
        "Early commit at (bytes)");
    def.define(
        COMMIT_RETRY_TIMEOUT_MS,
        Type.LONG,
        COMMIT_RETRY_TIMEOUT_MS_DEFAULT,
        ConfigDef.Range.atLeast(0),
        Importance.LOW,
        COMMIT_RETRY_TIMEOUT_MS_DOC,
        GROUP_COMMIT,
        ++order,
        Width.SHORT,
        "Commit retry timeout (ms)");
    def.define(
        COMMIT_MAX_SILENT_CYCLES,
        Type.INT,
        COMMIT_MAX_SILENT_CYCLES_DEFAULT,
        ConfigDef.Range.atLeast(0),
        Importance.LOW,
        COMMIT_MAX_SILENT_CYCLES_DOC,
        GROUP_COMMIT,
        ++order,
        Width.SHORT,
        "Most silent cycles");
    def.define(
        TRANSACTIONAL_ID_PREFIX,
        Type.STRING,
        TRANSACTIONAL_ID_PREFIX_DEFAULT,
        Importance.LOW,
        TRANSACTIONAL_ID_PREFIX_DOC,
        GROUP_COMMIT,
        ++order,
        Width.MEDIUM,
        "Transactional id prefix");
    def.define(
        KAFKA_BOOTSTRAP_SERVERS,
        Type.STRING,
        null,
        new ConfigDef.NonEmptyString(),
        Importance.HIGH,
        KAFKA_BOOTSTRAP_SERVERS_DOC,
        GROUP_COMMIT,
        ++order,
        Width.LONG,
        "Kafka bootstrap servers");
    ConversionKeys.define(def);
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
    return "all".equalsIgnoreCase(props.getOrDefault("errors.tolerance", "none").trim());
  }

  /** The connector's dead-letter topic, if it has one. */
  public Optional<String> deadLetterTopic() {
    String topic = props.get("errors.deadletterqueue.topic.name");
    return topic == null || topic.isBlank() ? Optional.empty() : Optional.of(topic.trim());
  }

  public List<String> tables() {
    return getList(TABLES);
  }

  public boolean dynamicTablesEnabled() {
    return getBoolean(TABLES_DYNAMIC_ENABLED);
  }

  public Optional<String> routeField() {
    return Optional.ofNullable(getString(TABLES_ROUTE_FIELD));
  }

  /**
   * The settings of {@code table}: its {@code iceberg.table.<table>.*} keys over the defaults.
   *
   * @throws IllegalArgumentException naming the key whose value is invalid
   */
  public TableConfig tableConfig(String table) {
    return tableConfigs.computeIfAbsent(
        table, t -> TableConfig.parse(t, props, defaultPartitionBy));
  }

  public boolean evolveSchemaEnabled() {
    return getBoolean(TABLES_EVOLVE_SCHEMA_ENABLED);
  }

  public boolean autoCreateEnabled() {
    return getBoolean(TABLES_AUTO_CREATE_ENABLED);
  }

  /** Table properties for auto-created tables, from {@code iceberg.tables.auto-create-props.*}. */
  public Map<String, String> autoCreateProperties() {
    Map<String, String> result = new TreeMap<>();
    props.forEach(
        (key, value) -> {
          if (key.startsWith(AUTO_CREATE_PROPS_PREFIX)) {
            result.put(key.substring(AUTO_CREATE_PROPS_PREFIX.length()), value);
          }
        });
    return Collections.unmodifiableMap(result);
  }

  public String catalogName() {
    return getString(CATALOG_NAME);
  }

  public Optional<CatalogType> catalogType() {
    String type = getString(CATALOG_TYPE);
    return type == null ? Optional.empty() : Optional.of(CatalogType.parse(type));
  }

  public Optional<String> catalogImpl() {
    return Optional.ofNullable(getString(CATALOG_IMPL));
  }

  /**
   * The {@code iceberg.catalog.*} properties with the prefix removed, as the catalog takes them.
   */
  public Map<String, String> catalogProperties() {
    return catalogProperties;
  }

  public String controlTopic() {
    return getString(CONTROL_TOPIC);
  }

  public Duration commitInterval() {
    return Duration.ofMillis(getLong(COMMIT_INTERVAL_MS));
  }

  /**
   * The commit timeout: as set, or when unset the default, shortened to half the interval when that
   * is shorter (so an interval of 30 s or less needs no timeout of its own).
   */
  public Duration commitTimeout() {
    if (originals().containsKey(COMMIT_TIMEOUT_MS)) {
      return Duration.ofMillis(getLong(COMMIT_TIMEOUT_MS));
    }
    return Duration.ofMillis(
        Math.min(COMMIT_TIMEOUT_MS_DEFAULT, Math.max(1, getLong(COMMIT_INTERVAL_MS) / 2)));
  }

  public Duration commitRetryTimeout() {
    return Duration.ofMillis(getLong(COMMIT_RETRY_TIMEOUT_MS));
  }

  public int commitMaxSilentCycles() {
    return getInt(COMMIT_MAX_SILENT_CYCLES);
  }

  public long commitBufferBytes() {
    return getLong(COMMIT_BUFFER_BYTES);
  }

  public String transactionalIdPrefix() {
    return getString(TRANSACTIONAL_ID_PREFIX);
  }

  /**
   * Client properties of the control-topic producer and consumers: every {@code iceberg.kafka.*}
   * key with the prefix removed.
   */
  public Map<String, Object> kafkaProperties() {
    return kafkaProperties(WorkerKafka.ofThisProcess());
  }

  /**
   * The control clients' properties, over the worker's own client settings when {@code
   * iceberg.kafka.bootstrap.servers} is not set.
   */
  Map<String, Object> kafkaProperties(WorkerKafka worker) {
    Map<String, Object> properties = new TreeMap<>();
    if (!hasExplicitBootstrapServers()) {
      worker.find().ifPresent(found -> properties.putAll(found.clientProperties()));
    }
    properties.putAll(originalsWithPrefix(KAFKA_PREFIX, true));
    Object jaas = properties.get(SaslLoginModules.JAAS_CONFIG);
    if (jaas != null) {
      SaslLoginModules.problem(String.valueOf(jaas))
          .ifPresent(
              problem -> {
                throw new ConfigException(
                    KAFKA_PREFIX + SaslLoginModules.JAAS_CONFIG, Secrets.MASK, problem);
              });
    }
    return properties;
  }

  /**
   * The bootstrap servers of the control clients.
   *
   * @throws ConfigException when unset: the commit protocol cannot run without them
   */
  public String kafkaBootstrapServers() {
    return kafkaBootstrapServers(WorkerKafka.ofThisProcess());
  }

  String kafkaBootstrapServers(WorkerKafka worker) {
    if (hasExplicitBootstrapServers()) {
      return getString(KAFKA_BOOTSTRAP_SERVERS);
    }
    return worker
        .find()
        .map(WorkerKafka.Found::bootstrapServers)
        .orElseThrow(
            () -> new ConfigException(KAFKA_BOOTSTRAP_SERVERS, null, MISSING_BOOTSTRAP_SERVERS));
  }

  /** Where the control clients' bootstrap servers come from, for the logs. */
  public String kafkaBootstrapSource() {
    if (hasExplicitBootstrapServers()) {
      return KAFKA_BOOTSTRAP_SERVERS;
    }
    return WorkerKafka.ofThisProcess().find().map(WorkerKafka.Found::source).orElse("nowhere");
  }

  private boolean hasExplicitBootstrapServers() {
    String servers = getString(KAFKA_BOOTSTRAP_SERVERS);
    return servers != null && !servers.isBlank();
  }

  public static final String MISSING_BOOTSTRAP_SERVERS =
      "not set, and the Connect worker's own bootstrap servers could not be found (looked in "
          + WorkerKafka.whereLooked()
          + "). Set it to the bootstrap servers of the Kafka cluster this Connect cluster stores"
          + " its consumer offsets in (the worker's bootstrap.servers).";

  /** The name of the Kafka metadata column, if rows get one. */
  public Optional<String> kafkaMetadataColumn() {
    String name = getString(KAFKA_METADATA_COLUMN);
    return name == null || name.isBlank() ? Optional.empty() : Optional.of(name.trim());
  }

  /** Writer properties laid over every table's own, from {@code iceberg.tables.write-props.*}. */
  public Map<String, String> writeProperties() {
    Map<String, String> result = new TreeMap<>();
    props.forEach(
        (key, value) -> {
          if (key.startsWith(WRITE_PROPS_PREFIX)) {
            result.put(key.substring(WRITE_PROPS_PREFIX.length()), value);
          }
        });
    return Collections.unmodifiableMap(result);
  }

  public long writerMemoryBudgetBytes() {
    return getLong(WRITER_MEMORY_BUDGET_BYTES);
  }

  public int writerMaxOpenFiles() {
    return getInt(WRITER_MAX_OPEN_FILES);
  }

  public boolean writerFilePerSourcePartition() {
    return getBoolean(WRITER_FILE_PER_SOURCE_PARTITION);
  }

  /** The source topics from the connector's {@code topics} key, when it lists them. */
  public List<String> sourceTopics() {
    String topics = props.get("topics");
    if (topics == null || topics.isBlank()) {
      return List.of();
    }
    return Arrays.stream(topics.split(",")).map(String::trim).filter(t -> !t.isEmpty()).toList();
  }

  /** The connector's {@code topics.regex}, if it has one. */
  public Optional<String> sourceTopicsRegex() {
    String regex = props.get("topics.regex");
    return regex == null || regex.isBlank() ? Optional.empty() : Optional.of(regex);
  }

  /** This task's number (0 outside a task). */
  public int taskIndex() {
    String index = props.get(TASK_INDEX);
    return index == null ? 0 : Integer.parseInt(index);
  }

  /** The connector's name, as Connect passes it to tasks. */
  public String connectorName() {
    String name = props.get("name");
    return name == null || name.isBlank() ? "floe" : name;
  }

  /** Checks the syntax of a partition spec. */
  static final class PartitionByValidator implements ConfigDef.Validator {
    @Override
    public void ensureValid(String name, Object value) {
      try {
        PartitionBy.parse((String) value);
      } catch (IllegalArgumentException e) {
        throw new ConfigException(name, value, e.getMessage());
      }
    }

    @Override
    public String toString() {
      return "comma-separated terms: column, year(c), month(c), day(c), hour(c), bucket(c, N),"
          + " truncate(c, W)";
    }
  }

  /** The catalog types Floe bundles the client of. */
  public enum CatalogType {
    REST,
    JDBC,
    GLUE,
    HADOOP;

    static String names() {
      return String.join(
          ", ",
          Arrays.stream(values())
              .map(t -> t.name().toLowerCase(Locale.ROOT))
              .toArray(String[]::new));
    }

    public String icebergName() {
      return name().toLowerCase(Locale.ROOT);
    }

    /** Strict: an unknown name is an error, never a silent default. */
    public static CatalogType parse(String name) {
      for (CatalogType type : values()) {
        if (type.icebergName().equals(name.trim().toLowerCase(Locale.ROOT))) {
          return type;
        }
      }
      if ("hive".equalsIgnoreCase(name.trim())) {
        throw new ConfigException(
            CATALOG_TYPE,
            name,
            "the Hive metastore client is not bundled with Floe; use a REST, JDBC or Glue catalog,"
                + " or add the Hive catalog jars to the plugin folder and set"
                + " iceberg.catalog.catalog-impl");
      }
      throw new ConfigException(CATALOG_TYPE, name, "must be one of " + names());
    }

    static final class Validator implements ConfigDef.Validator {
      @Override
      public void ensureValid(String name, Object value) {
        if (value != null) {
          parse((String) value);
        }
      }

      @Override
      public String toString() {
        return "[" + names() + "]";
      }
    }
  }
}
