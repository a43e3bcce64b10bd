/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.connect.cdc.KeyBytes;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.UUID;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

class KeyRecordBytesTest {
  private static final Types.StructType INNER =
      Types.StructType.of(
          Types.NestedField.required(20, "region", Types.StringType.get()),
          Types.NestedField.optional(21, "n", Types.IntegerType.get()));
  private static final Types.StructType KEY =
      Types.StructType.of(
          Types.NestedField.required(1, "i", Types.IntegerType.get()),
          Types.NestedField.required(2, "l", Types.LongType.get()),
          Types.NestedField.required(3, "s", Types.StringType.get()),
          Types.NestedField.required(4, "d", Types.DateType.get()),
          Types.NestedField.required(5, "t", Types.TimeType.get()),
          Types.NestedField.required(6, "ts", Types.TimestampType.withoutZone()),
          Types.NestedField.required(7, "tz", Types.TimestampType.withZone()),
          Types.NestedField.required(8, "u", Types.UUIDType.get()),
          Types.NestedField.required(9, "b", Types.BinaryType.get()),
          Types.NestedField.required(10, "f", Types.FixedType.ofLength(3)),
          Types.NestedField.required(11, "dec", Types.DecimalType.of(10, 3)),
          Types.NestedField.required(12, "bool", Types.BooleanType.get()),
          Types.NestedField.required(13, "nested", INNER));

  @Test
  void everyKeyTypeReadsBackEqual() {
    GenericRecord inner = GenericRecord.create(INNER);
    inner.setField("region", "eu\uD800"); // a lone surrogate stays as it is
    inner.setField("n", null);
    GenericRecord key = GenericRecord.create(KEY);
    key.setField("i", -7);
    key.setField("l", Long.MIN_VALUE);
    key.setField("s", "Zoë");
    key.setField("d", LocalDate.of(1969, 12, 31));
    key.setField("t", LocalTime.of(23, 59, 59, 999_999_000));
    key.setField("ts", LocalDateTime.of(1900, 1, 1, 0, 0, 0, 1_000));
    key.setField("tz", OffsetDateTime.of(2026, 12, 5, 10, 0, 0, 5_000, ZoneOffset.ofHours(2)));
    key.setField("u", UUID.randomUUID());
    key.setField("b", ByteBuffer.wrap(new byte[] {0, -1, 2}));
    key.setField("f", new byte[] {9, 8, 7});
    key.setField("dec", new BigDecimal("-12.500"));
    key.setField("bool", false);
    key.setField("nested", inner);

    KeyBytes.Writer out = new KeyBytes.Writer();
    KeyRecordBytes.write(key, out);
    KeyBytes.Reader in = new KeyBytes.Reader(out.toByteArray());
    Record back = KeyRecordBytes.read(KEY, in);

    assertThat(in.atEnd()).isTrue();
    for (Types.NestedField field : KEY.fields()) {
      if (field.name().equals("f")) {
        assertThat((byte[]) back.getField("f")).containsExactly(9, 8, 7);
      } else {
        assertThat(back.getField(field.name()))
            .as(field.name())
            .isEqualTo(key.getField(field.name()));
      }
    }
    assertThat(((BigDecimal) back.getField("dec")).scale()).isEqualTo(3);
    assertThat(((OffsetDateTime) back.getField("tz")).getOffset()).isEqualTo(ZoneOffset.ofHours(2));
  }

  @Test
  void aValueNoKeyHoldsIsRefused() {
    Types.StructType type =
        Types.StructType.of(Types.NestedField.required(1, "x", Types.LongType.get()));
    GenericRecord key = GenericRecord.create(type);
    key.set(0, new Object());
    assertThatThrownBy(() -> KeyRecordBytes.write(key, new KeyBytes.Writer()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("a type a key cannot have");
  }
}
