/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.stack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A Hive Metastore 2.3 on an embedded Derby database, its Thrift service bound to 127.0.0.1, in a
 * child JVM whose jars come from the {@code integration-tests/runtimes/hive-metastore-2.3} module
 * (Hive's old Guava, Jackson and Thrift stay out of the test JVM). Its warehouse is a local folder,
 * which the metastore and the Connect workers on this machine both reach: a metastore creates the
 * folders of the databases and tables it registers, so it must reach the tables' storage. The
 * metastore logs the locks it grants, releases and times out ({@link #log()}); it times out the
 * lock of a client that stopped heartbeating after {@link #LOCK_TIMEOUT}, as a metastore's
 * housekeeping does after {@code hive.txn.timeout}.
 */
public final class HiveMetastore implements AutoCloseable {
  private static final Duration START_TIMEOUT = Duration.ofSeconds(120);

  /** How long a lock whose holder stopped heartbeating lasts. */
  public static final Duration LOCK_TIMEOUT = Duration.ofSeconds(6);

  private static final Pattern LOCK_GRANTED =
      Pattern.compile("update HIVE_LOCKS set hl_lock_state = 'a'.* where hl_lock_ext_id = (\\d+) ");

  private final JavaProcess process;
  private final Path dir;
  private final Path warehouse;
  private final int port;

  private HiveMetastore(JavaProcess process, Path dir, Path warehouse, int port) {
    this.process = process;
    this.dir = dir;
    this.warehouse = warehouse;
    this.port = port;
  }

  /**
   * Starts a metastore holding the given databases, each at its default location under the
   * warehouse.
   */
  public static HiveMetastore start(String... databases) {
    Path dir = StackDirs.newServiceDir("hive-metastore");
    Path warehouse = dir.resolve("warehouse");
    try {
      Files.createDirectories(warehouse);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    JavaProcess process =
        JavaProcess.start(
            "hive-metastore",
            libDir(),
            List.of(
                "-Xmx384m",
                "-XX:TieredStopAtLevel=1",
                // each lock the metastore grants, with its database and table
                "-Dorg.slf4j.simpleLogger.log.org.apache.hadoop.hive.metastore.txn.TxnHandler=debug"),
            "io.floe.it.hive.MetastoreServer",
            Stream.concat(
                    Stream.of(
                        dir.toString(),
                        warehouse.toUri().toString(),
                        Long.toString(LOCK_TIMEOUT.toSeconds())),
                    Stream.of(databases))
                .toList(),
            dir);
    Path portFile = dir.resolve("port");
    try {
      Await.until(
          "the Hive Metastore to serve",
          START_TIMEOUT,
          () -> {
            process.checkAlive();
            return Files.exists(portFile);
          });
      int port = Integer.parseInt(Files.readString(portFile).trim());
      Ports.awaitOpen(port, START_TIMEOUT, "Hive Metastore");
      return new HiveMetastore(process, dir, warehouse, port);
    } catch (IOException | RuntimeException e) {
      process.close();
      throw e instanceof IOException io ? new UncheckedIOException(io) : (RuntimeException) e;
    }
  }

  public String uri() {
    return "thrift://" + Ports.LOOPBACK + ":" + port;
  }

  public Path warehouse() {
    return warehouse;
  }

  public Path log() {
    return process.log();
  }

  /** The metastore's log, to follow the locks it grants, releases and times out. */
  public LogFile logFile() {
    return new LogFile(process.log());
  }

  /**
   * Waits for the next lock the metastore grants, logged after {@code mark}, looking every few
   * milliseconds, and returns its id.
   */
  public long awaitLockGranted(long mark, Duration timeout) {
    return Long.parseLong(
        logFile().await(LOCK_GRANTED, mark, timeout, Duration.ofMillis(5)).group(1));
  }

  /** Whether lock {@code id}, granted after {@code mark}, was released by its holder. */
  public boolean lockReleased(long id, long mark) {
    return !logFile()
        .matches(Pattern.compile("delete from HIVE_LOCKS where hl_lock_ext_id = " + id + " "), mark)
        .isEmpty();
  }

  /** Waits until the metastore times out lock {@code id}, whose holder stopped heartbeating. */
  public void awaitLockTimedOut(long id, long mark, Duration timeout) {
    logFile()
        .await(
            Pattern.compile("Removing expired locks via: .*hl_lock_ext_id in \\(" + id + "\\)"),
            mark,
            timeout);
  }

  /** The {@code iceberg.catalog.*} properties (prefix removed) of a Hive catalog on this one. */
  public Map<String, String> catalogProperties() {
    return Map.of("type", "hive", "uri", uri(), "warehouse", warehouse.toUri().toString());
  }

  /**
   * The table's {@code metadata_location} in the metastore, read by a Hive client in a child JVM:
   * the pointer the connector's commits swapped, under the metastore's lock; empty while the
   * metastore has no such table.
   */
  public Optional<String> metadataLocation(String database, String table) {
    Path out = StackDirs.newServiceDir("hive-client");
    int exit =
        JavaProcess.run(
            "hive-client",
            libDir(),
            List.of("-Xmx256m", "-XX:TieredStopAtLevel=1"),
            "io.floe.it.hive.MetadataLocation",
            List.of(uri(), database, table),
            out);
    Properties read = new Properties();
    try (var in = Files.newBufferedReader(out.resolve("hive-client.log"))) {
      read.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    if (exit == 0 && "none".equals(read.getProperty("table_type"))) {
      return Optional.empty();
    }
    if (exit != 0 || !"ICEBERG".equals(read.getProperty("table_type"))) {
      throw new IllegalStateException(
          database + "." + table + " is no Iceberg table of the metastore; see " + out);
    }
    return Optional.of(read.getProperty("metadata_location"));
  }

  private static Path libDir() {
    return StackDirs.runtimeLib("hive-metastore-2.3", "Hive Metastore");
  }

  @Override
  public void close() {
    process.close();
  }

  @Override
  public String toString() {
    return "Hive Metastore at " + uri() + " (" + dir + ")";
  }
}
