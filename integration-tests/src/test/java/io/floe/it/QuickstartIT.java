/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;

import io.floe.it.quickstart.Quickstart;
import io.floe.it.quickstart.SampleEvents;
import io.floe.it.stack.StackDirs;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.LongStream;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/**
 * The README's first command keeps working: the quickstart runs end to end, and its table has
 * followed the sample events' schema change (the {@code country} column, null for the v1 events).
 */
class QuickstartIT {

  @Test
  void quickstartRunsTheEmbeddedStackEndToEnd() {
    ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(buffer, true, StandardCharsets.UTF_8);
    Quickstart quickstart = new Quickstart(StackDirs.newServiceDir("quickstart"), out);
    Quickstart.Outcome outcome = quickstart.run();
    String printed = buffer.toString(StandardCharsets.UTF_8);
    System.out.print(printed);

    assertThat(printed).contains("is RUNNING").contains("Produced 101 Avro events");
    assertThat(outcome)
        .as("quickstart outcome; it printed:%n%s", printed)
        .isEqualTo(Quickstart.Outcome.TABLE_WRITTEN);
    assertThat(printed).contains("101 row(s)").contains("country");
    // the print: rows by id, the first without the evolved column, the last with it, and the
    // snapshot's lineage one key per line
    assertThat(printed)
        .containsPattern("(?m)^ +id +user +page +ts +country$")
        .containsPattern("(?m)^ +0 +user-0 +/ +\\S+ +null$")
        .containsPattern("(?m)^ +100 +user-0 +/goodbye +\\S+ +NL$")
        .containsPattern("(?m)^ +floe\\.commit-id +\\S+$")
        .containsPattern("(?m)^ +floe\\.source-offsets\\.\\S+ +\\{.*events.*\\}$")
        .contains("... 81 more row(s) ...");
    List<Long> printedIds = new ArrayList<>();
    Matcher rowLine = Pattern.compile("(?m)^ {4}(\\d+) +user-").matcher(printed);
    while (rowLine.find()) {
      printedIds.add(Long.parseLong(rowLine.group(1)));
    }
    assertThat(printedIds)
        .as("ids of the printed rows: the first and the last ten, in order")
        .containsExactlyElementsOf(
            LongStream.concat(LongStream.range(0, 10), LongStream.rangeClosed(91, 100))
                .boxed()
                .toList());

    Types.StructType schema = quickstart.readTable(table -> table.schema().asStruct());
    assertThat(schema)
        .isEqualTo(
            Types.StructType.of(
                required(1, "id", Types.LongType.get()),
                required(2, "user", Types.StringType.get()),
                required(3, "page", Types.StringType.get()),
                required(4, "ts", Types.TimestampType.withZone()),
                optional(5, "country", Types.StringType.get())));
    List<Record> rows = quickstart.readTable(QuickstartIT::rowsById);
    List<SampleEvents.Event> sent = SampleEvents.events(Quickstart.EVENTS_PER_VERSION);
    assertThat(rows).hasSize(sent.size());
    OffsetDateTime first = (OffsetDateTime) rows.get(0).getField("ts");
    long withCountry = 0;
    for (int i = 0; i < sent.size(); i++) {
      SampleEvents.Event event = sent.get(i);
      Record row = rows.get(i);
      assertThat(row.getField("id")).isEqualTo(event.id());
      assertThat(row.getField("user")).as("user of %d", i).isEqualTo(event.user());
      assertThat(row.getField("page")).as("page of %d", i).isEqualTo(event.page());
      assertThat(row.getField("country")).as("country of %d", i).isEqualTo(event.country());
      assertThat(row.getField("ts")).as("ts of %d", i).isEqualTo(first.plusSeconds(event.id()));
      withCountry += event.country() == null ? 0 : 1;
    }
    assertThat(withCountry).isEqualTo(Quickstart.EVENTS_PER_VERSION + 1);
  }

  private static List<Record> rowsById(org.apache.iceberg.Table table) {
    List<Record> rows = new ArrayList<>();
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
      records.forEach(rows::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    rows.sort(Comparator.comparing(row -> (Long) row.getField("id")));
    return rows;
  }
}
