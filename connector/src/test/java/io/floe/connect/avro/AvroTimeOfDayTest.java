/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.avro;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.connect.convert.ConnectSchemas;
import io.floe.connect.convert.ConvertOptions;
import io.floe.connect.convert.RecordConverters;
import io.floe.connect.convert.TimeOfDayType;
import java.time.LocalTime;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Avro time-millis and time-micros, from Avro records to Iceberg rows: microseconds since midnight
 * in a {@code long} column by default (long-micros), a {@code time} column with the time type.
 */
class AvroTimeOfDayTest {
  private static final Schema AVRO =
      new Schema.Parser()
          .parse(
              "{\"type\":\"record\",\"name\":\"Shift\",\"namespace\":\"t\",\"fields\":["
                  + "{\"name\":\"starts\",\"type\":{\"type\":\"int\",\"logicalType\":\"time-millis\"}},"
                  + "{\"name\":\"ends\",\"type\":{\"type\":\"long\",\"logicalType\":\"time-micros\"}}]}");

  @ParameterizedTest
  @CsvSource({"TIME", "LONG_MICROS"})
  void timeMillisAndTimeMicrosBecomeTheConfiguredColumnWithExactValues(TimeOfDayType type) {
    GenericRecord avro = new GenericData.Record(AVRO);
    avro.put("starts", 3_723_004);
    avro.put("ends", 86_399_999_999L);
    org.apache.kafka.connect.data.Schema connect = AvroToConnect.toConnect(AVRO);
    Struct struct = (Struct) AvroToConnectValues.convert(AVRO, connect, avro);
    ConvertOptions options = ConvertOptions.defaults().withTimeOfDayType(type);

    org.apache.iceberg.Schema table = ConnectSchemas.toIcebergSchema(connect, options);
    Record row = RecordConverters.forSchema(connect, table, options).convert(struct);

    boolean asTime = type == TimeOfDayType.TIME;
    Object column = asTime ? Types.TimeType.get() : Types.LongType.get();
    assertThat(table.findType("starts")).isEqualTo(column);
    assertThat(table.findType("ends")).isEqualTo(column);
    assertThat(row.getField("starts"))
        .isEqualTo(asTime ? LocalTime.of(1, 2, 3, 4_000_000) : (Object) 3_723_004_000L);
    assertThat(row.getField("ends"))
        .isEqualTo(asTime ? LocalTime.of(23, 59, 59, 999_999_000) : (Object) 86_399_999_999L);
  }
}
