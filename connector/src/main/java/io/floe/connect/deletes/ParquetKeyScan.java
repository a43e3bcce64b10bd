/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.deletes;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Schema;
import org.apache.iceberg.deletes.PositionDeleteIndex;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.column.impl.ColumnReadStoreImpl;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.io.DelegatingSeekableInputStream;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * Reads the key columns of a Parquet data file straight from its column chunks, writing each row's
 * key as {@link KeyCodec} writes keys and looking it up among the retired keys by those bytes: no
 * row object, no string decoded for an ASCII value, no filter bound per file. It reads what
 * Iceberg's generic reader would read and finds the same rows; where it cannot be sure of that it
 * declines, before reading any row, and the caller reads the file the generic way:
 *
 * <ul>
 *   <li>the key columns must be top-level columns of the table of one of the types below, each in
 *       the file under its field id, with the physical type Iceberg writes for it: {@code int32}
 *       for int and date, {@code int64} (or {@code int32} for a long widened from an int) for long,
 *       time and timestamps (microseconds, nanoseconds for {@code timestamp_ns}), {@code binary}
 *       for string and binary, {@code fixed_len_byte_array} for fixed and UUID;
 *   <li>a file without field ids (read through a name mapping) is declined, and so is any other
 *       format.
 * </ul>
 *
 * A string whose bytes are not all ASCII is decoded and written again as the generic reader would
 * decode it, so that invalid UTF-8 compares as the generic reader's replacement characters do.
 */
final class ParquetKeyScan {
  private final RetiredKeys keys;
  private final Types.NestedField[] columns;
  private final KeyBounds bounds;

  private ParquetKeyScan(RetiredKeys keys, Types.NestedField[] columns, KeyBounds bounds) {
    this.keys = keys;
    this.columns = columns;
    this.bounds = bounds;
  }

  /** Told each live row holding a retired key. */
  @FunctionalInterface
  interface Matches {
    void row(int ordinal, long position);
  }

  /** A scan for {@code keys}, or null when their columns are not all ones it can read. */
  static ParquetKeyScan of(RetiredKeys keys) {
    return of(keys, null);
  }

  /**
   * A scan for {@code keys} that skips the row groups whose column statistics {@code bounds} rules
   * out, or null when their columns are not all ones it can read.
   *
   * @param bounds the keys' bounds check, null to read every row group
   */
  static ParquetKeyScan of(RetiredKeys keys, KeyBounds bounds) {
    Schema keySchema = keys.keySchema();
    List<Types.NestedField> fields = keySchema.columns();
    for (Types.NestedField field : fields) {
      if (!field.type().isPrimitiveType() || !readable(field.type().typeId())) {
        return null;
      }
    }
    return new ParquetKeyScan(keys, fields.toArray(new Types.NestedField[0]), bounds);
  }

  private static boolean readable(Type.TypeID type) {
    return switch (type) {
      case INTEGER, LONG, DATE, TIME, TIMESTAMP, TIMESTAMP_NANO, STRING, BINARY, FIXED, UUID ->
          true;
      default -> false;
    };
  }

  /**
   * A reader's options, on a configuration of their own: options built without one make a Hadoop
   * configuration, which parses Hadoop's default XML resources at its first read (5 ms a file, more
   * than reading the key column of a small file). Never shared: a reader releases its options'
   * codecs when it closes.
   */
  private static ParquetReadOptions readOptions() {
    return ParquetReadOptions.builder(new PlainParquetConfiguration()).build();
  }

  /**
   * Reads the file's key columns, telling {@code matches} every row that holds a retired key and is
   * not in {@code deleted}.
   *
   * @param deleted the file's deleted rows at the snapshot, null for none
   * @return the number of live rows read (the rows of row groups skipped by their statistics are
   *     not read), or -1 when the scan declined the file (nothing was told)
   */
  long scan(FileIO io, DataFile file, PositionDeleteIndex deleted, Matches matches) {
    if (file.format() != FileFormat.PARQUET) {
      return -1;
    }
    try (ParquetFileReader reader =
        new ParquetFileReader(new Input(io.newInputFile(file)), readOptions())) {
      MessageType fileSchema = reader.getFooter().getFileMetaData().getSchema();
      ColumnDescriptor[] descriptors = new ColumnDescriptor[columns.length];
      for (int i = 0; i < columns.length; i++) {
        descriptors[i] = column(fileSchema, columns[i]);
        if (descriptors[i] == null) {
          return -1;
        }
      }
      reader.setRequestedSchema(List.of(descriptors));
      MessageType requested = requested(fileSchema, descriptors);
      String createdBy = reader.getFooter().getFileMetaData().getCreatedBy();
      KeyCodec.Bytes key = new KeyCodec.Bytes(64);
      long live = 0;
      long rowIndex = 0;
      for (BlockMetaData block : reader.getRowGroups()) {
        if (!mayHoldKey(block, descriptors)) {
          reader.skipNextRowGroup();
          rowIndex += block.getRowCount();
          continue;
        }
        PageReadStore rowGroup = reader.readNextRowGroup();
        long first = rowGroup.getRowIndexOffset().orElse(rowIndex);
        long rows = rowGroup.getRowCount();
        ColumnReadStoreImpl store =
            new ColumnReadStoreImpl(
                rowGroup, new NoConverter(columns.length), requested, createdBy);
        ColumnReader[] readers = new ColumnReader[columns.length];
        for (int i = 0; i < columns.length; i++) {
          readers[i] = store.getColumnReader(descriptors[i]);
        }
        for (long r = 0; r < rows; r++) {
          long position = first + r;
          key.clear();
          boolean complete = true;
          for (int i = 0; i < columns.length; i++) {
            ColumnReader column = readers[i];
            if (column.getCurrentDefinitionLevel()
                < column.getDescriptor().getMaxDefinitionLevel()) {
              complete = false;
            } else if (complete) {
              write(columns[i].type().typeId(), column, key);
            } else {
              column.skip(); // a value must be read or skipped before the reader moves on
            }
            column.consume();
          }
          if (deleted != null && deleted.isDeleted(position)) {
            continue;
          }
          live++;
          if (complete) {
            int ordinal = keys.ordinalOf(key.array(), key.size());
            if (ordinal >= 0) {
              matches.row(ordinal, position);
            }
          }
        }
        rowIndex = first + rows;
      }
      return live;
    } catch (IOException e) {
      throw new UncheckedIOException("could not read " + file.location(), e);
    }
  }

  /**
   * Whether the row group may hold a retired key, as its key columns' statistics tell: a column
   * without usable statistics does not rule anything out.
   */
  private boolean mayHoldKey(BlockMetaData block, ColumnDescriptor[] descriptors) {
    if (bounds == null) {
      return true;
    }
    Map<Integer, ByteBuffer> lower = new HashMap<>();
    Map<Integer, ByteBuffer> upper = new HashMap<>();
    for (int i = 0; i < columns.length; i++) {
      ColumnPath path = ColumnPath.get(descriptors[i].getPath());
      for (ColumnChunkMetaData chunk : block.getColumns()) {
        if (!chunk.getPath().equals(path)) {
          continue;
        }
        Statistics<?> stats = chunk.getStatistics();
        if (stats == null || stats.isEmpty() || !stats.hasNonNullValue()) {
          break;
        }
        Type type = columns[i].type();
        Object min = icebergValue(type, stats.genericGetMin());
        Object max = icebergValue(type, stats.genericGetMax());
        if (min != null && max != null) {
          lower.put(columns[i].fieldId(), Conversions.toByteBuffer(type, min));
          upper.put(columns[i].fieldId(), Conversions.toByteBuffer(type, max));
        }
        break;
      }
    }
    return bounds.mayHoldKey(lower, upper);
  }

  /** A statistic of a column as Iceberg holds a value of the column's type, null if unknown. */
  private static Object icebergValue(Type type, Object value) {
    return switch (type.typeId()) {
      case INTEGER, DATE -> value instanceof Integer ? value : null;
      case LONG, TIME, TIMESTAMP ->
          value instanceof Number number ? Long.valueOf(number.longValue()) : null;
      case STRING -> value instanceof Binary binary ? binary.toStringUsingUTF8() : null;
      case BINARY, FIXED ->
          value instanceof Binary binary ? ByteBuffer.wrap(binary.getBytes()) : null;
      default -> null;
    };
  }

  /** The file's column of the table column {@code field}, or null when it is not one to read. */
  private static ColumnDescriptor column(MessageType fileSchema, Types.NestedField field) {
    for (org.apache.parquet.schema.Type type : fileSchema.getFields()) {
      if (type.getId() == null || type.getId().intValue() != field.fieldId()) {
        continue;
      }
      if (!type.isPrimitive()
          || type.isRepetition(org.apache.parquet.schema.Type.Repetition.REPEATED)) {
        return null;
      }
      org.apache.parquet.schema.PrimitiveType primitive = type.asPrimitiveType();
      if (!physicalTypeFits(field.type(), primitive)) {
        return null;
      }
      return fileSchema.getColumnDescription(new String[] {type.getName()});
    }
    return null;
  }

  private static boolean physicalTypeFits(
      Type type, org.apache.parquet.schema.PrimitiveType primitive) {
    PrimitiveTypeName physical = primitive.getPrimitiveTypeName();
    LogicalTypeAnnotation logical = primitive.getLogicalTypeAnnotation();
    return switch (type.typeId()) {
      case INTEGER, DATE -> physical == PrimitiveTypeName.INT32;
      case LONG -> physical == PrimitiveTypeName.INT64 || physical == PrimitiveTypeName.INT32;
      case TIME, TIMESTAMP -> physical == PrimitiveTypeName.INT64 && unit(logical) == MICROS;
      case TIMESTAMP_NANO -> physical == PrimitiveTypeName.INT64 && unit(logical) == NANOS;
      case STRING, BINARY -> physical == PrimitiveTypeName.BINARY;
      case FIXED ->
          physical == PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY
              && primitive.getTypeLength() == ((Types.FixedType) type).length();
      case UUID ->
          physical == PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY && primitive.getTypeLength() == 16;
      default -> false;
    };
  }

  private static final LogicalTypeAnnotation.TimeUnit MICROS =
      LogicalTypeAnnotation.TimeUnit.MICROS;
  private static final LogicalTypeAnnotation.TimeUnit NANOS = LogicalTypeAnnotation.TimeUnit.NANOS;

  private static LogicalTypeAnnotation.TimeUnit unit(LogicalTypeAnnotation logical) {
    if (logical instanceof LogicalTypeAnnotation.TimestampLogicalTypeAnnotation timestamp) {
      return timestamp.getUnit();
    }
    if (logical instanceof LogicalTypeAnnotation.TimeLogicalTypeAnnotation time) {
      return time.getUnit();
    }
    return null;
  }

  private static MessageType requested(MessageType fileSchema, ColumnDescriptor[] descriptors) {
    List<org.apache.parquet.schema.Type> fields = new ArrayList<>();
    for (ColumnDescriptor descriptor : descriptors) {
      fields.add(fileSchema.getType(descriptor.getPath()));
    }
    return new MessageType(fileSchema.getName(), fields);
  }

  /** Writes the column's current value as {@link KeyCodec} writes a value of {@code type}. */
  private static void write(Type.TypeID type, ColumnReader column, KeyCodec.Bytes out) {
    switch (type) {
      case INTEGER, DATE -> out.putInt(column.getInteger() ^ Integer.MIN_VALUE);
      case LONG -> {
        long value =
            column.getDescriptor().getPrimitiveType().getPrimitiveTypeName()
                    == PrimitiveTypeName.INT32
                ? column.getInteger()
                : column.getLong();
        out.putLong(value ^ Long.MIN_VALUE);
      }
      case TIME, TIMESTAMP, TIMESTAMP_NANO -> out.putLong(column.getLong() ^ Long.MIN_VALUE);
      case STRING -> writeString(column.getBinary(), out);
      case BINARY, FIXED -> writeBytes(column.getBinary(), out, true);
      case UUID -> writeBytes(column.getBinary(), out, false);
      default -> throw new IllegalStateException("no key scan of a " + type);
    }
  }

  private static void writeString(Binary value, KeyCodec.Bytes out) {
    ByteBuffer bytes = value.toByteBuffer();
    for (int i = bytes.position(); i < bytes.limit(); i++) {
      if (bytes.get(i) < 0) {
        // not ASCII: as the generic reader decodes it, invalid bytes replaced
        KeyCodec.writeString(new String(value.getBytes(), StandardCharsets.UTF_8), out);
        return;
      }
    }
    writeBytes(value, out, true);
  }

  private static void writeBytes(Binary value, KeyCodec.Bytes out, boolean withLength) {
    ByteBuffer bytes = value.toByteBuffer();
    int length = bytes.remaining();
    if (withLength) {
      out.putVarint(length);
    }
    out.ensure(length);
    bytes.get(bytes.position(), out.array(), out.size(), length);
    out.skip(length);
  }

  /** Column readers read values out directly: nothing is handed to a converter. */
  private static final class NoConverter extends GroupConverter {
    private final PrimitiveConverter primitive = new PrimitiveConverter() {};
    private final int fields;

    NoConverter(int fields) {
      this.fields = fields;
    }

    @Override
    public Converter getConverter(int fieldIndex) {
      if (fieldIndex >= fields) {
        throw new IllegalArgumentException("no field " + fieldIndex);
      }
      return primitive;
    }

    @Override
    public void start() {}

    @Override
    public void end() {}
  }

  /** An Iceberg input file as Parquet reads one. */
  private record Input(org.apache.iceberg.io.InputFile file) implements InputFile {
    @Override
    public long getLength() {
      return file.getLength();
    }

    @Override
    public SeekableInputStream newStream() {
      org.apache.iceberg.io.SeekableInputStream stream = file.newStream();
      return new DelegatingSeekableInputStream(stream) {
        @Override
        public long getPos() throws IOException {
          return stream.getPos();
        }

        @Override
        public void seek(long newPos) throws IOException {
          stream.seek(newPos);
        }
      };
    }
  }
}
