/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.bench;

import java.time.OffsetDateTime;
import java.util.Date;
import org.apache.iceberg.data.Record;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Timestamp;

/** The benchmark rows of {@link BenchRows} as Connect values, the way a producer's records read. */
final class BenchEvents {
  static final Schema ADDRESS =
      SchemaBuilder.struct()
          .name("bench.Address")
          .optional()
          .field("city", Schema.STRING_SCHEMA)
          .field("zip", Schema.OPTIONAL_INT32_SCHEMA)
          .field("lat", Schema.FLOAT64_SCHEMA)
          .build();

  static final Schema ORDER =
      SchemaBuilder.struct()
          .name("bench.Order")
          .field("id", Schema.INT64_SCHEMA)
          .field("quantity", Schema.INT32_SCHEMA)
          .field("amount", Schema.FLOAT64_SCHEMA)
          .field("paid", Schema.BOOLEAN_SCHEMA)
          .field("customer", Schema.STRING_SCHEMA)
          .field("country", Schema.STRING_SCHEMA)
          .field("order_uuid", Schema.STRING_SCHEMA)
          .field("note", Schema.OPTIONAL_STRING_SCHEMA)
          .field("ts", Timestamp.SCHEMA)
          .field("address", ADDRESS)
          .field("discount", Schema.OPTIONAL_FLOAT64_SCHEMA)
          .field("coupon", Schema.OPTIONAL_STRING_SCHEMA)
          .build();

  private BenchEvents() {}

  /** The Connect struct of a benchmark row. */
  static Struct toStruct(Record row) {
    Struct order = new Struct(ORDER);
    for (int i = 0; i < 8; i++) {
      order.put(ORDER.fields().get(i), row.get(i));
    }
    OffsetDateTime ts = (OffsetDateTime) row.get(8);
    order.put("ts", Date.from(ts.toInstant()));
    Record address = (Record) row.get(9);
    if (address != null) {
      order.put(
          "address",
          new Struct(ADDRESS)
              .put("city", address.get(0))
              .put("zip", address.get(1))
              .put("lat", address.get(2)));
    }
    order.put("discount", row.get(10));
    order.put("coupon", row.get(11));
    return order;
  }
}
