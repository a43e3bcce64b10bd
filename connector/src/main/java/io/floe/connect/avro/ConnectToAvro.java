/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.avro;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.JsonProperties;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Time;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.errors.DataException;

/**
 * Maps a Connect schema to an Avro schema: the inverse of {@link AvroToConnect}, using the
 * parameters it keeps, so an Avro schema that went to Connect comes back equal (but for the place
 * of {@code null} in a union without a non-null default, which is always first).
 *
 * <p>For Connect schemas from elsewhere: an optional schema becomes a union with {@code null} first
 * and a {@code null} default; a STRUCT without a name is a record named after its field's path
 * ({@code ConnectDefault} at the top, in namespace {@value #DEFAULT_NAMESPACE}); names are made
 * valid Avro names; Connect names of primitive schemas other than the logical types above are not
 * kept; a decimal without {@code connect.decimal.precision} gets precision {@value
 * #DEFAULT_DECIMAL_PRECISION}; maps need STRING keys; INT8 and INT16 are {@code int} marked with
 * {@code connect.type}. Not thread-safe: one instance per conversion.
 */
final class ConnectToAvro {
  static final String DEFAULT_NAMESPACE = "io.floe.connect.avro";
  static final String DEFAULT_NAME = DEFAULT_NAMESPACE + ".ConnectDefault";
  static final int DEFAULT_DECIMAL_PRECISION = 64;

  private final NamedTypes named = new NamedTypes();

  private ConnectToAvro() {}

  /**
   * The Avro schema of a Connect schema.
   *
   * @throws DataException when the Connect schema has no Avro form
   */
  static Schema toAvro(org.apache.kafka.connect.data.Schema connect) {
    ConnectToAvro converter = new ConnectToAvro();
    try {
      Schema base = converter.base(connect, true, DEFAULT_NAME);
      return connect.isOptional() ? nullable(base, true) : base;
    } catch (AvroRuntimeException e) {
      throw new DataException("The Connect schema has no Avro form: " + e.getMessage(), e);
    }
  }

  private Schema base(org.apache.kafka.connect.data.Schema connect, boolean top, String path) {
    Map<String, String> params = params(connect);
    String logical = params.get(AvroParameters.LOGICAL_TYPE);
    Schema logicalSchema = logical(connect, params, path);
    if (logicalSchema != null) {
      return logicalSchema;
    }
    Schema schema =
        switch (connect.type()) {
          case INT8 -> marked(Schema.create(Schema.Type.INT), "int8");
          case INT16 -> marked(Schema.create(Schema.Type.INT), "int16");
          case INT32 -> Schema.create(Schema.Type.INT);
          case INT64 -> Schema.create(Schema.Type.LONG);
          case FLOAT32 -> Schema.create(Schema.Type.FLOAT);
          case FLOAT64 -> Schema.create(Schema.Type.DOUBLE);
          case BOOLEAN -> Schema.create(Schema.Type.BOOLEAN);
          case STRING ->
              params.containsKey(AvroParameters.ENUM_SYMBOLS)
                  ? enumeration(params, path)
                  : Schema.create(Schema.Type.STRING);
          case BYTES ->
              params.containsKey(AvroParameters.FIXED_SIZE)
                  ? fixed(params, path, fixed -> markLogical(fixed, logical))
                  : Schema.create(Schema.Type.BYTES);
          case ARRAY -> Schema.createArray(element(connect.valueSchema(), path + "_element"));
          case MAP -> map(connect, path);
          case STRUCT ->
              UnionBranches.isUnionStruct(connect)
                  ? union(connect, path)
                  : record(connect, top, path);
        };
    return schema.getType() == Schema.Type.FIXED ? schema : markLogical(schema, logical);
  }

  /** Keeps a logical type Connect has no counterpart for, as the Avro property. */
  private static Schema markLogical(Schema schema, String logical) {
    if (logical != null && !logical.startsWith("local-timestamp")) {
      schema.addProp("logicalType", logical);
    }
    return schema;
  }

  /** The Avro logical type of a Connect logical or Debezium-named schema; null for others. */
  private Schema logical(
      org.apache.kafka.connect.data.Schema connect, Map<String, String> params, String path) {
    String name = connect.name();
    if (name == null) {
      return null;
    }
    boolean local = params.getOrDefault(AvroParameters.LOGICAL_TYPE, "").startsWith("local-");
    org.apache.kafka.connect.data.Schema.Type type = connect.type();
    return switch (name) {
      case Decimal.LOGICAL_NAME -> decimal(params, path);
      case Date.LOGICAL_NAME -> LogicalTypes.date().addToSchema(Schema.create(Schema.Type.INT));
      case Time.LOGICAL_NAME ->
          LogicalTypes.timeMillis().addToSchema(Schema.create(Schema.Type.INT));
      case Timestamp.LOGICAL_NAME ->
          (local ? LogicalTypes.localTimestampMillis() : LogicalTypes.timestampMillis())
              .addToSchema(Schema.create(Schema.Type.LONG));
      case AvroParameters.MICRO_TIME ->
          type != org.apache.kafka.connect.data.Schema.Type.INT64
              ? null
              : LogicalTypes.timeMicros().addToSchema(Schema.create(Schema.Type.LONG));
      case AvroParameters.MICRO_TIMESTAMP ->
          type != org.apache.kafka.connect.data.Schema.Type.INT64
              ? null
              : (local ? LogicalTypes.localTimestampMicros() : LogicalTypes.timestampMicros())
                  .addToSchema(Schema.create(Schema.Type.LONG));
      case AvroParameters.NANO_TIMESTAMP ->
          type != org.apache.kafka.connect.data.Schema.Type.INT64
              ? null
              : (local ? LogicalTypes.localTimestampNanos() : LogicalTypes.timestampNanos())
                  .addToSchema(Schema.create(Schema.Type.LONG));
      case AvroParameters.UUID ->
          type != org.apache.kafka.connect.data.Schema.Type.STRING
              ? null
              : LogicalTypes.uuid().addToSchema(Schema.create(Schema.Type.STRING));
      default -> null;
    };
  }

  private Schema decimal(Map<String, String> params, String path) {
    int scale = Integer.parseInt(params.getOrDefault(Decimal.SCALE_FIELD, "0"));
    String precision = params.get(AvroParameters.DECIMAL_PRECISION);
    LogicalTypes.Decimal decimal =
        LogicalTypes.decimal(
            precision == null ? DEFAULT_DECIMAL_PRECISION : Integer.parseInt(precision), scale);
    try {
      return params.containsKey(AvroParameters.FIXED_SIZE)
          ? fixed(params, path, decimal::addToSchema)
          : decimal.addToSchema(Schema.create(Schema.Type.BYTES));
    } catch (IllegalArgumentException e) {
      throw new DataException("Decimal at " + path + " has no Avro form: " + e.getMessage(), e);
    }
  }

  private Schema record(org.apache.kafka.connect.data.Schema connect, boolean top, String path) {
    Map<String, String> params = params(connect);
    String fullName = NamedTypes.validName(connect.name() != null ? connect.name() : path);
    String typeDoc = params.get(AvroParameters.TYPE_DOC);
    String doc = typeDoc == null && top ? connect.doc() : typeDoc;
    List<Schema.Field> fields = new ArrayList<>();
    for (Field field : connect.fields()) {
      fields.add(field(field, fullName + "_" + NamedTypes.validName(field.name())));
    }
    return named.define(
        fullName,
        name -> {
          Schema record =
              Schema.createRecord(
                  NamedTypes.simpleName(name),
                  doc,
                  NamedTypes.namespace(name),
                  false,
                  copy(fields));
          aliases(params).forEach(record::addAlias);
          return record;
        });
  }

  private Schema.Field field(Field field, String path) {
    org.apache.kafka.connect.data.Schema connect = field.schema();
    Map<String, String> params = params(connect);
    Schema base = base(connect, false, path);
    Object defaultValue = defaultOf(connect, params, base);
    Schema type =
        connect.isOptional()
            ? nullable(base, defaultValue == null || defaultValue == JsonProperties.NULL_VALUE)
            : base;
    if (defaultValue == null && connect.isOptional()) {
      defaultValue = JsonProperties.NULL_VALUE;
    }
    Schema.Field avro =
        defaultValue == null
            ? new Schema.Field(field.name(), type, connect.doc())
            : new Schema.Field(field.name(), type, connect.doc(), defaultValue);
    String aliases = params.get(AvroParameters.FIELD_ALIASES);
    if (aliases != null) {
      Arrays.stream(aliases.split(",")).filter(a -> !a.isBlank()).forEach(avro::addAlias);
    }
    return avro;
  }

  /** The field's default: the kept Avro JSON if it still fits, else the Connect default. */
  private static Object defaultOf(
      org.apache.kafka.connect.data.Schema connect, Map<String, String> params, Schema base) {
    String json = params.get(AvroParameters.FIELD_DEFAULT);
    if (json != null) {
      boolean isNull = AvroDefaults.isNull(json);
      Schema type = connect.isOptional() ? nullable(base, isNull) : base;
      return AvroDefaults.fits(type, json) ? AvroDefaults.fromJson(json) : null;
    }
    if (connect.defaultValue() == null) {
      return null;
    }
    return switch (connect.type()) {
      case STRUCT, ARRAY, MAP -> null;
      default ->
          AvroDefaults.forField(ConnectToAvroValues.convert(base, connect, connect.defaultValue()));
    };
  }

  private Schema union(org.apache.kafka.connect.data.Schema connect, String path) {
    List<Schema> branches = new ArrayList<>();
    for (Field field : connect.fields()) {
      Schema branch = base(field.schema(), false, path + "_" + NamedTypes.validName(field.name()));
      if (branch.getType() == Schema.Type.UNION) {
        throw new DataException("Union at " + path + " has a union branch; Avro forbids that");
      }
      branches.add(branch);
    }
    return Schema.createUnion(branches);
  }

  private Schema element(org.apache.kafka.connect.data.Schema connect, String path) {
    Schema base = base(connect, false, path);
    return connect.isOptional() ? nullable(base, true) : base;
  }

  private Schema map(org.apache.kafka.connect.data.Schema connect, String path) {
    if (connect.keySchema().type() != org.apache.kafka.connect.data.Schema.Type.STRING) {
      throw new DataException(
          "Map at "
              + path
              + " has "
              + connect.keySchema().type()
              + " keys; Avro maps have string keys only");
    }
    return Schema.createMap(element(connect.valueSchema(), path + "_value"));
  }

  private Schema enumeration(Map<String, String> params, String path) {
    String fullName = NamedTypes.validName(params.getOrDefault(AvroParameters.TYPE_NAME, path));
    List<String> symbols = Arrays.asList(params.get(AvroParameters.ENUM_SYMBOLS).split(","));
    return named.define(
        fullName,
        name -> {
          Schema schema =
              Schema.createEnum(
                  NamedTypes.simpleName(name),
                  params.get(AvroParameters.TYPE_DOC),
                  NamedTypes.namespace(name),
                  symbols,
                  params.get(AvroParameters.ENUM_DEFAULT));
          aliases(params).forEach(schema::addAlias);
          return schema;
        });
  }

  /** A fixed type; {@code decorate} adds its logical type before it is compared and defined. */
  private Schema fixed(Map<String, String> params, String path, Consumer<Schema> decorate) {
    String fullName = NamedTypes.validName(params.getOrDefault(AvroParameters.TYPE_NAME, path));
    int size = Integer.parseInt(params.get(AvroParameters.FIXED_SIZE));
    return named.define(
        fullName,
        name -> {
          Schema schema =
              Schema.createFixed(
                  NamedTypes.simpleName(name),
                  params.get(AvroParameters.TYPE_DOC),
                  NamedTypes.namespace(name),
                  size);
          aliases(params).forEach(schema::addAlias);
          decorate.accept(schema);
          return schema;
        });
  }

  /** A union with null: first, or last when the default is not null. */
  static Schema nullable(Schema base, boolean nullFirst) {
    List<Schema> types = new ArrayList<>();
    Schema nullSchema = Schema.create(Schema.Type.NULL);
    if (nullFirst) {
      types.add(nullSchema);
    }
    if (base.getType() == Schema.Type.UNION) {
      types.addAll(base.getTypes());
    } else {
      types.add(base);
    }
    if (!nullFirst) {
      types.add(nullSchema);
    }
    return Schema.createUnion(types);
  }

  private static Schema marked(Schema schema, String connectType) {
    schema.addProp(AvroParameters.CONNECT_TYPE_PROP, connectType);
    return schema;
  }

  private static List<Schema.Field> copy(List<Schema.Field> fields) {
    List<Schema.Field> copies = new ArrayList<>(fields.size());
    for (Schema.Field field : fields) {
      copies.add(new Schema.Field(field, field.schema()));
    }
    return copies;
  }

  private static List<String> aliases(Map<String, String> params) {
    String aliases = params.get(AvroParameters.TYPE_ALIASES);
    if (aliases == null || aliases.isBlank()) {
      return List.of();
    }
    return Arrays.stream(aliases.split(",")).filter(a -> !a.isBlank()).toList();
  }

  private static Map<String, String> params(org.apache.kafka.connect.data.Schema connect) {
    return connect.parameters() == null ? Map.of() : connect.parameters();
  }
}
