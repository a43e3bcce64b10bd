/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.errors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.sink.ErrantRecordReporter;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;

class BadRecordPolicyTest {
  private static final String SECRET_VALUE = "value-that-must-not-appear";

  private final List<SinkRecord> reported = new ArrayList<>();
  private final List<Throwable> reasons = new ArrayList<>();
  private final List<CompletableFuture<Void>> futures = new ArrayList<>();
  private final ErrantRecordReporter reporter =
      (record, error) -> {
        reported.add(record);
        reasons.add(error);
        CompletableFuture<Void> future = new CompletableFuture<>();
        futures.add(future);
        return future;
      };

  private static SinkRecord record(Object value) {
    return new SinkRecord("orders", 3, Schema.STRING_SCHEMA, "k", Schema.STRING_SCHEMA, value, 42L);
  }

  @Test
  void withoutAReporterABadRecordFailsTheTaskNamingWhereItIsAndNotItsValue() {
    BadRecordPolicy policy = new BadRecordPolicy(null, false);
    assertThatThrownBy(
            () ->
                policy.failed(
                    record(SECRET_VALUE), "db.orders", new DataException("field 'qty': bad type")))
        .isInstanceOf(ConnectException.class)
        .hasMessage(
            "Cannot write the record at topic orders, partition 3, offset 42 to table db.orders:"
                + " field 'qty': bad type")
        .hasMessageNotContaining(SECRET_VALUE);
  }

  @Test
  void withAReporterABadRecordIsReportedWithItsReasonAndCounted() {
    BadRecordPolicy policy = new BadRecordPolicy(reporter, false);
    SinkRecord bad = record(SECRET_VALUE);
    policy.failed(bad, null, new DataException("no table for route value"));

    assertThat(reported).containsExactly(bad);
    assertThat(reasons.get(0))
        .hasMessage(
            "Cannot write the record at topic orders, partition 3, offset 42: no table for route"
                + " value");
    assertThat(policy.deadLettered()).isEqualTo(1);
  }

  @Test
  void awaitingBlocksUntilEveryReportIsAcknowledged() throws Exception {
    BadRecordPolicy policy = new BadRecordPolicy(reporter, false);
    policy.failed(record("a"), null, new DataException("x"));
    policy.failed(record("b"), null, new DataException("y"));
    CompletableFuture<Void> waiting = CompletableFuture.runAsync(policy::awaitReported);
    Thread.sleep(100);
    assertThat(waiting).isNotDone();
    futures.get(0).complete(null);
    Thread.sleep(50);
    assertThat(waiting).isNotDone();
    futures.get(1).complete(null);
    waiting.get();
    // acknowledged reports are not awaited again
    policy.awaitReported();
  }

  @Test
  void aFailedReportFailsTheAwaitSoItsOffsetIsNeverCommitted() {
    BadRecordPolicy policy = new BadRecordPolicy(reporter, false);
    policy.failed(record("a"), "db.t", new DataException("bad"));
    futures.get(0).completeExceptionally(new IllegalStateException("DLQ topic not authorized"));
    assertThatThrownBy(policy::awaitReported)
        .isInstanceOf(ConnectException.class)
        .hasMessageContaining("Could not dead-letter a bad record, so its offset is not committed")
        .hasMessageContaining("DLQ topic not authorized")
        .hasMessageContaining("topic orders, partition 3, offset 42 to table db.t");
  }

  @Test
  void tombstonesAreSkippedAndCountedByDefault() {
    BadRecordPolicy policy = new BadRecordPolicy(null, false);
    policy.tombstone(record(null));
    policy.tombstone(record(null));
    assertThat(policy.tombstones()).isEqualTo(2);
  }

  @Test
  void tombstonesAreBadRecordsWhenConfiguredToFail() {
    assertThatThrownBy(() -> new BadRecordPolicy(null, true).tombstone(record(null)))
        .isInstanceOf(ConnectException.class)
        .hasMessageContaining("offset 42")
        .hasMessageContaining("tombstone");

    BadRecordPolicy tolerant = new BadRecordPolicy(reporter, true);
    tolerant.tombstone(record(null));
    assertThat(reported).hasSize(1);
    assertThat(tolerant.tombstones()).isZero();
    assertThat(tolerant.deadLettered()).isEqualTo(1);
  }
}
