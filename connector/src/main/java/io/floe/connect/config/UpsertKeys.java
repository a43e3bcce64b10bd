/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.config;

import io.floe.connect.cdc.CdcOptions;
import io.floe.connect.cdc.ChangeFormat;
import java.util.Locale;
import java.util.function.BiFunction;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.ConfigException;

/**
 * The keys of upsert mode: whether tables take their records as row changes (upserts and deletes of
 * keys) rather than appends, and how changes are read from records ({@link CdcOptions}). A table
 * may turn upsert mode on or off for itself with {@code iceberg.table.<table>.upsert-mode-enabled};
 * the other keys apply to every table in upsert mode.
 *
 * @param enabled whether tables are in upsert mode unless they say otherwise
 * @param options how tables in upsert mode read changes
 * @param keyIndexEnabled whether tables in upsert mode have a key index on the coordinator unless
 *     they say otherwise
 * @param keyIndexMaxMemoryMb the most memory, in MiB, one table's key index may take
 */
public record UpsertKeys(
    boolean enabled, CdcOptions options, boolean keyIndexEnabled, int keyIndexMaxMemoryMb) {
  static final String GROUP = "Upsert mode";

  public static final String UPSERT_MODE_ENABLED = "iceberg.tables.upsert-mode-enabled";
  public static final String UPSERT_MODE_ENABLED_DOC =
      "When true, records are row changes of the table's key (iceberg.table.<table>.id-columns,"
          + " else the fields of the record key, such as Debezium's key struct): an upsert replaces"
          + " the key's row, a delete or a tombstone removes it, and the last"
          + " change of a key in a commit wins. When false, every record is appended. A table"
          + " overrides it with iceberg.table.<table>.upsert-mode-enabled.";
  public static final boolean UPSERT_MODE_ENABLED_DEFAULT = false;

  public static final String CDC_FORMAT = "iceberg.tables.cdc-format";
  public static final String CDC_FORMAT_DOC =
      "How records of tables in upsert mode carry their changes: 'envelope' (Debezium's"
          + " before/after/op envelope), 'flattened' (a row with the op field or __deleted, as"
          + " Debezium's ExtractNewRecordState leaves it), 'keyed' (every record upserts its key, a"
          + " tombstone deletes it), or 'auto' to tell them apart record by record.";
  public static final String CDC_FORMAT_DEFAULT = "auto";

  public static final String CDC_FIELD = "iceberg.tables.cdc-field";
  public static final String CDC_FIELD_DOC =
      "The field of a flattened record that holds its op (c, r, u, d, t, m, or I, U, D); dotted for"
          + " a field of a struct, such as _cdc.op. It is not written to the table.";
  public static final String CDC_FIELD_DEFAULT = CdcOptions.DEFAULT_OP_FIELD;

  public static final String CDC_TRUNCATE_ENABLED = "iceberg.tables.cdc-truncate-enabled";
  public static final String CDC_TRUNCATE_ENABLED_DOC =
      "When true, a truncate (Debezium's op t) empties the table: every row committed before its"
          + " commit cycle goes, and so does every change its task read before it; changes read"
          + " after it are kept. Exact for a topic of one partition; with several, changes other"
          + " tasks read in the same cycle are kept. When false, a truncate is a bad record. A"
          + " table overrides it with iceberg.table.<table>.cdc-truncate-enabled.";
  public static final boolean CDC_TRUNCATE_ENABLED_DEFAULT = false;

  public static final String CDC_UNAVAILABLE_VALUE_PLACEHOLDER =
      "iceberg.tables.cdc-unavailable-value-placeholder";
  public static final String CDC_UNAVAILABLE_VALUE_PLACEHOLDER_DOC =
      "The value Debezium sends for a column it did not read, such as an unchanged TOASTed one (its"
          + " unavailable.value.placeholder). A row image holding it is a bad record, since"
          + " writing it would replace the column's value.";
  public static final String CDC_UNAVAILABLE_VALUE_PLACEHOLDER_DEFAULT =
      CdcOptions.DEFAULT_UNAVAILABLE_VALUE_PLACEHOLDER;

  public static final String UPSERT_KEY_INDEX_ENABLED = "iceberg.tables.upsert-key-index-enabled";
  public static final String UPSERT_KEY_INDEX_ENABLED_DOC =
      "When true, the coordinator keeps an index in memory of the rows (data file and position)"
          + " that hold each key of a table in upsert mode, and takes the rows a commit replaces"
          + " or deletes from it instead of reading the key columns of every file whose partition"
          + " and column bounds may hold a retired key. Worth it for random keys (UUIDs, hashes),"
          + " which such bounds cannot rule out; it costs memory (see"
          + " iceberg.tables.upsert-key-index-max-memory-mb), a read of the table's key columns"
          + " at the table's first commit after the coordinator starts, and a read of the key"
          + " columns of the files each commit adds. A table overrides it with"
          + " iceberg.table.<table>.upsert-key-index-enabled.";
  public static final boolean UPSERT_KEY_INDEX_ENABLED_DEFAULT = false;

  public static final String UPSERT_KEY_INDEX_MAX_MEMORY_MB =
      "iceberg.tables.upsert-key-index-max-memory-mb";
  public static final String UPSERT_KEY_INDEX_MAX_MEMORY_MB_DOC =
      "The most memory, in MiB, that one table's key index may take on the coordinator's worker"
          + " (about 32 to 48 bytes per key). A table whose index would need more loses it, with a"
          + " warning, and its keys are found by the pruned scan until the coordinator restarts;"
          + " a commit never fails for it.";
  public static final int UPSERT_KEY_INDEX_MAX_MEMORY_MB_DEFAULT = 256;

  static UpsertKeys parse(AbstractConfig config) {
    CdcOptions options =
        CdcOptions.defaults()
            .withFormat(format(config.getString(CDC_FORMAT)))
            .withOpField(config.getString(CDC_FIELD))
            .withTruncateEnabled(config.getBoolean(CDC_TRUNCATE_ENABLED))
            .withUnavailableValuePlaceholder(config.getString(CDC_UNAVAILABLE_VALUE_PLACEHOLDER));
    return new UpsertKeys(
        config.getBoolean(UPSERT_MODE_ENABLED),
        options,
        config.getBoolean(UPSERT_KEY_INDEX_ENABLED),
        config.getInt(UPSERT_KEY_INDEX_MAX_MEMORY_MB));
  }

  /** The most bytes one table's key index may take. */
  public long keyIndexMaxBytes() {
    return keyIndexMaxMemoryMb * 1024L * 1024L;
  }

  private static ChangeFormat format(String value) {
    return ChangeFormat.valueOf(value.toUpperCase(Locale.ROOT));
  }

  static void define(ConfigDef def) {
    int order = 0;
    def.define(
        UPSERT_MODE_ENABLED,
        Type.BOOLEAN,
        UPSERT_MODE_ENABLED_DEFAULT,
        Importance.MEDIUM,
        UPSERT_MODE_ENABLED_DOC,
        GROUP,
        ++order,
        Width.SHORT,
        "Upsert mode");
    def.define(
        CDC_FORMAT,
        Type.STRING,
        CDC_FORMAT_DEFAULT,
        ConfigDef.CaseInsensitiveValidString.in("auto", "envelope", "flattened", "keyed"),
        Importance.MEDIUM,
        CDC_FORMAT_DOC,
        GROUP,
        ++order,
        Width.SHORT,
        "Change format");
    def.define(
        CDC_FIELD,
        Type.STRING,
        CDC_FIELD_DEFAULT,
        new OptionCheck("a field name, dotted for a field of a struct", CdcOptions::withOpField),
        Importance.LOW,
        CDC_FIELD_DOC,
        GROUP,
        ++order,
        Width.SHORT,
        "Op field");
    def.define(
        CDC_TRUNCATE_ENABLED,
        Type.BOOLEAN,
        CDC_TRUNCATE_ENABLED_DEFAULT,
        Importance.LOW,
        CDC_TRUNCATE_ENABLED_DOC,
        GROUP,
        ++order,
        Width.SHORT,
        "Truncates");
    def.define(
        CDC_UNAVAILABLE_VALUE_PLACEHOLDER,
        Type.STRING,
        CDC_UNAVAILABLE_VALUE_PLACEHOLDER_DEFAULT,
        new OptionCheck("a non-empty string", CdcOptions::withUnavailableValuePlaceholder),
        Importance.LOW,
        CDC_UNAVAILABLE_VALUE_PLACEHOLDER_DOC,
        GROUP,
        ++order,
        Width.LONG,
        "Unavailable-value placeholder");
    def.define(
        UPSERT_KEY_INDEX_ENABLED,
        Type.BOOLEAN,
        UPSERT_KEY_INDEX_ENABLED_DEFAULT,
        Importance.LOW,
        UPSERT_KEY_INDEX_ENABLED_DOC,
        GROUP,
        ++order,
        Width.SHORT,
        "Key index");
    def.define(
        UPSERT_KEY_INDEX_MAX_MEMORY_MB,
        Type.INT,
        UPSERT_KEY_INDEX_MAX_MEMORY_MB_DEFAULT,
        new PositiveMegabytes(),
        Importance.LOW,
        UPSERT_KEY_INDEX_MAX_MEMORY_MB_DOC,
        GROUP,
        ++order,
        Width.SHORT,
        "Key index memory (MiB)");
  }

  /** A memory size in MiB: a whole number of at least 1. */
  private static final class PositiveMegabytes implements ConfigDef.Validator {
    @Override
    public void ensureValid(String name, Object value) {
      if (value == null || (Integer) value < 1) {
        throw new ConfigException(
            name,
            value,
            "must be a whole number of MiB of at least 1: the most memory one table's key index"
                + " may take (to have no key index, set "
                + UPSERT_KEY_INDEX_ENABLED
                + "=false instead)");
      }
    }

    @Override
    public String toString() {
      return "at least 1";
    }
  }

  /** Checks a value by setting it on the default options, which refuse what they cannot use. */
  private static final class OptionCheck implements ConfigDef.Validator {
    private final String description;
    private final BiFunction<CdcOptions, String, CdcOptions> setter;

    OptionCheck(String description, BiFunction<CdcOptions, String, CdcOptions> setter) {
      this.description = description;
      this.setter = setter;
    }

    @Override
    public void ensureValid(String name, Object value) {
      if (value == null) {
        throw new ConfigException(name, null, "must be " + description);
      }
      try {
        setter.apply(CdcOptions.defaults(), (String) value);
      } catch (IllegalArgumentException e) {
        throw new ConfigException(name, value, e.getMessage());
      }
    }

    @Override
    public String toString() {
      return description;
    }
  }
}
