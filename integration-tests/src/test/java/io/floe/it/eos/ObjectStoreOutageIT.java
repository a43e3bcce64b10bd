/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.eos;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.floe.it.stack.ConnectWorker;
import io.floe.it.stack.KafkaBroker;
import io.floe.it.stack.RestCatalogServer;
import io.floe.it.stack.S3ProxyServer;
import io.floe.it.stack.Services;
import io.floe.it.stack.SharedStack;
import java.time.Duration;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.regex.Pattern;
import org.apache.iceberg.catalog.Catalog;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The object store goes away: a REST catalog whose warehouse is on S3Proxy, a Connect worker whose
 * tasks write their data files and manifests there too. While S3 is down neither the workers'
 * hand-overs nor the coordinator's commits can succeed; afterwards every record is in the tables
 * exactly once ({@link TableOracle}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(SharedStack.Extension.class)
class ObjectStoreOutageIT {
  private static final long INTERVAL_MS = 2000;
  private static final Duration CONVERGE = Duration.ofSeconds(120);

  private KafkaBroker broker;
  private S3ProxyServer s3;
  private RestCatalogServer rest;
  private Catalog catalog;
  private ConnectWorker worker;
  private OrderEvents events;
  private Admin admin;

  @RegisterExtension final Services services = Services.closedAfterAll();

  /** The shared broker and worker; an object store and a catalog of its own, which it stops. */
  @BeforeAll
  void startStack(SharedStack stack) {
    broker = stack.broker();
    s3 = services.own(S3ProxyServer.start());
    rest = services.own(RestCatalogServer.withS3Warehouse(s3, "outage"));
    catalog = services.catalog("test", rest.clientProperties());
    worker = stack.worker();
    events = services.own(new OrderEvents(broker.bootstrapServers()));
    admin = services.own(broker.admin());
  }

  private Map<String, String> connector(String name) {
    Map<String, String> config =
        TwoTableConnector.config(
            name, name, 2, rest.clientProperties(), broker.bootstrapServers(), INTERVAL_MS);
    // fail fast instead of the SDK's own retries, so the outage reaches Floe's retry logic
    config.put("iceberg.catalog.s3.retry.num-retries", "0");
    return config;
  }

  private TableOracle oracle(String name) {
    return TwoTableConnector.oracle(catalog, name);
  }

  private static void await(String what, LongSupplier actual, long expected, Duration timeout)
      throws InterruptedException {
    TwoTableConnector.await(what, actual, expected, timeout);
  }

  @Test
  void anObjectStoreOutageDelaysCommitsAndLosesAndDuplicatesNothing() throws Exception {
    String name = "s3down";
    broker.createTopic(name, 4);
    worker.rest().putConnector(name, connector(name));
    worker.rest().awaitRunning(name, 2, Duration.ofSeconds(60));
    TableOracle oracle = oracle(name);
    events.send(name, 4, 0, 1000);
    await("rows before the outage", oracle::rowCount, 1000, CONVERGE);

    // depending on timing the outage hits the tasks' hand-overs, the coordinator's commits or both
    Pattern outageFelt =
        Pattern.compile(
            String.join(
                "|",
                Pattern.quote("Task " + name + "-") + "\\d could not (hand over cycle|write)",
                Pattern.quote("of tables [db." + name)));
    long beforeOutage = worker.logFile().mark();
    s3.stopServing();
    try {
      events.send(name, 4, 1000, 3000);
      Thread.sleep(5 * INTERVAL_MS);
      // the worker log tells what happened: the outage was felt before the store comes back
      worker.logFile().await(outageFelt, beforeOutage, CONVERGE);
    } finally {
      s3.resumeServing();
    }
    await("rows after the outage", oracle::rowCount, 3000, CONVERGE);
    oracle.assertExactlyOnce(admin, "connect-" + name, name, 3000);
    assertThat(worker.rest().status(name).path("tasks"))
        .allSatisfy(task -> assertThat(task.path("state").asText()).isEqualTo("RUNNING"));
    worker.rest().deleteConnector(name);
  }

  @Test
  void anObjectStoreOutagePastTheRetryTimeoutFailsReadablyAndARestartResumesExactlyOnce()
      throws Exception {
    String name = "s3gone";
    broker.createTopic(name, 4);
    Map<String, String> config = connector(name);
    config.put("iceberg.control.commit.retry-timeout-ms", "4000");
    worker.rest().putConnector(name, config);
    worker.rest().awaitRunning(name, 2, Duration.ofSeconds(60));
    TableOracle oracle = oracle(name);
    events.send(name, 4, 0, 1000);
    await("rows before the outage", oracle::rowCount, 1000, CONVERGE);

    s3.stopServing();
    JsonNode failed;
    try {
      events.send(name, 4, 1000, 2000);
      failed = worker.rest().awaitTaskFailed(name, Duration.ofSeconds(90));
      Thread.sleep(3000); // the other task's retry timeout ends too
    } finally {
      s3.resumeServing();
    }
    assertThat(failed.path("trace").asText())
        .as("the failed task's trace")
        .contains("iceberg.control.commit.retry-timeout-ms=4000");

    restartUntilRunning(name);
    await("rows after the restart", oracle::rowCount, 2000, CONVERGE);
    oracle.assertExactlyOnce(admin, "connect-" + name, name, 2000);
    worker.rest().deleteConnector(name);
  }

  /** Restarts the failed tasks, again if one whose failure was on its way failed after them. */
  private void restartUntilRunning(String name) {
    for (int attempt = 1; ; attempt++) {
      try {
        worker.rest().restartFailedTasks(name);
        worker.rest().awaitRunning(name, 2, Duration.ofSeconds(60));
        return;
      } catch (AssertionError stillFailed) {
        if (attempt == 3) {
          throw stillFailed;
        }
      }
    }
  }
}
