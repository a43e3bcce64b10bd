/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.stack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A PostgreSQL server started for one test and stopped by {@link #close()}, run from the binaries
 * of a Maven test dependency ({@link PostgresBinaries}); nothing installed on the machine is used.
 *
 * <p>The binaries are unpacked once for the build ({@link PostgresBinaries#shared()}). Everything
 * else lives in a fresh {@code /tmp/floe-postgres-*} folder, which any OS user can reach and whose
 * Unix socket path is short: the cluster in {@code data/} ({@code initdb} with trust
 * authentication, database user {@value #USER}, UTF8), the server log {@code postgres.log}. The
 * server listens on 127.0.0.1 only, on a free port, and has a database {@value #DATABASE}. The
 * command outputs go to the service folder {@code target/it-work/postgres-<n>}; on close the server
 * log is copied there and the /tmp folder is deleted.
 *
 * <p>initdb refuses to run as root, so when the tests run as root the /tmp folder is handed to the
 * OS user {@value #OS_USER} and initdb, pg_ctl and the server run as that user ({@code runuser -u
 * nobody --}).
 *
 * <p>Until {@link #close()} runs, a shutdown hook stops the server and deletes its folder if the
 * JVM exits, so an aborted run does not leave a server behind; close removes it.
 */
public final class PostgresServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(PostgresServer.class);

  public static final String USER = "postgres";
  public static final String DATABASE = "iceberg";

  /** The OS user the server runs as when the tests run as root. */
  static final String OS_USER = "nobody";

  private static final long COMMAND_TIMEOUT_SECONDS = 120;

  private final Path serviceDir;
  private final Path baseDir;
  private final Path binDir;
  private final List<String> runAs;
  private final int port;
  private final Thread shutdownHook;
  private long startupMillis;
  private boolean closed;

  private PostgresServer(Path serviceDir, Path baseDir, Path binDir, List<String> runAs, int port) {
    this.serviceDir = serviceDir;
    this.baseDir = baseDir;
    this.binDir = binDir;
    this.runAs = runAs;
    this.port = port;
    this.shutdownHook = new Thread(this::stopAtJvmExit, "postgres-" + port + "-stop");
  }

  /** Unpacks the binaries, initialises a cluster and starts the server. */
  public static PostgresServer start() {
    long begin = System.nanoTime();
    boolean root = isRoot();
    List<String> runAs = root ? List.of("runuser", "-u", OS_USER, "--") : List.of();
    Path serviceDir = StackDirs.newServiceDir("postgres");
    Path baseDir = newBaseDir(root);
    PostgresServer server;
    try {
      Path binDir = binaries(runAs, baseDir);
      server = new PostgresServer(serviceDir, baseDir, binDir, runAs, Ports.free());
    } catch (RuntimeException e) {
      deleteTree(baseDir);
      throw e;
    }
    try {
      server.initAndStart();
    } catch (RuntimeException e) {
      try {
        server.close();
      } catch (RuntimeException closeFailure) {
        e.addSuppressed(closeFailure);
      }
      throw e;
    }
    server.startupMillis = (System.nanoTime() - begin) / 1_000_000;
    LOG.info(
        "PostgreSQL ({}) started at {} in {} ms, data in {}",
        server.binDir,
        server.jdbcUrl(),
        server.startupMillis,
        baseDir);
    return server;
  }

  /**
   * The binaries unpacked once for the build, if the server's OS user can run them there (as root,
   * {@value #OS_USER} must be able to reach the build's folder); else a copy of its own in {@code
   * baseDir/pgsql}.
   */
  private static Path binaries(List<String> runAs, Path baseDir) {
    Path shared = PostgresBinaries.shared();
    List<String> check = new ArrayList<>(runAs);
    check.addAll(List.of("test", "-x", shared.resolve("postgres").toString()));
    if (Exec.output(check) != null) {
      return shared;
    }
    LOG.info("{} cannot run the binaries in {}; unpacking a copy of its own", runAs, shared);
    return PostgresBinaries.unpackTo(baseDir.resolve("pgsql"));
  }

  private void initAndStart() {
    long begin = System.nanoTime();
    run(
        "initdb",
        command(
            "initdb",
            "-D",
            dataDir().toString(),
            "-U",
            USER,
            "--auth=trust",
            "-E",
            "UTF8",
            "--locale=C",
            "--no-sync"));
    long initialised = System.nanoTime();
    Runtime.getRuntime().addShutdownHook(shutdownHook);
    startServer();
    long started = System.nanoTime();
    createDatabase();
    LOG.info(
        "PostgreSQL: initdb {} ms, pg_ctl start {} ms, CREATE DATABASE {} ms",
        (initialised - begin) / 1_000_000,
        (started - initialised) / 1_000_000,
        (System.nanoTime() - started) / 1_000_000);
  }

  private void startServer() {
    String serverOptions =
        String.join(
            " ",
            "-c listen_addresses=" + Ports.LOOPBACK,
            "-p " + port,
            "-k '" + baseDir + "'",
            "-c fsync=off",
            "-c full_page_writes=off");
    run(
        "pg_ctl-start",
        command(
            "pg_ctl",
            "-D",
            dataDir().toString(),
            "-l",
            serverLog().toString(),
            "-o",
            serverOptions,
            "-w",
            "-t",
            "60",
            "start"));
  }

  /**
   * Adds a user who owns the {@value #DATABASE} database and must log in over TCP with this
   * password (SCRAM-SHA-256); the superuser {@value #USER} is still trusted, so tests can set
   * things up and change the password without it.
   */
  public synchronized void addPasswordUser(String user, String password) {
    execute("CREATE ROLE " + user + " LOGIN PASSWORD " + literal(password));
    execute("ALTER DATABASE " + DATABASE + " OWNER TO " + user);
    Path hba = dataDir().resolve("pg_hba.conf");
    String rules =
        "# written by the test stack: the superuser is trusted, everyone else needs a password\n"
            + "local all all trust\n"
            + "host all "
            + USER
            + " 127.0.0.1/32 trust\n"
            + "host all all 127.0.0.1/32 scram-sha-256\n";
    try {
      Files.writeString(hba, rules, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write " + hba, e);
    }
    execute("SELECT pg_reload_conf()");
  }

  /**
   * Changes a user's password and ends that user's open sessions, so the next connection must log
   * in with the new one: a rotated secret.
   */
  public synchronized void rotatePassword(String user, String password) {
    execute("ALTER ROLE " + user + " PASSWORD " + literal(password));
    execute(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = " + literal(user));
  }

  /** Stops the server ({@code pg_ctl stop -m fast}): clients get connection refused. */
  public synchronized void stopServing() {
    stop("fast");
  }

  /** Starts the server again on the same port, with the same data. */
  public synchronized void resumeServing() {
    startServer();
    LOG.info("PostgreSQL at {} serves again", jdbcUrl());
  }

  private static String literal(String value) {
    return "'" + value.replace("'", "''") + "'";
  }

  private void execute(String sql) {
    try (Connection connection = DriverManager.getConnection(jdbcUrl(), USER, "");
        Statement statement = connection.createStatement()) {
      statement.execute(sql);
    } catch (SQLException e) {
      throw new IllegalStateException("PostgreSQL at " + jdbcUrl() + " refused a statement", e);
    }
  }

  private void createDatabase() {
    String url = "jdbc:postgresql://" + Ports.LOOPBACK + ":" + port + "/postgres";
    try (Connection connection = DriverManager.getConnection(url, USER, "");
        Statement statement = connection.createStatement()) {
      statement.execute("CREATE DATABASE " + DATABASE);
    } catch (SQLException e) {
      throw new IllegalStateException(
          "Cannot create database " + DATABASE + " at " + url + "; see " + serverLog(), e);
    }
  }

  /** {@code jdbc:postgresql://127.0.0.1:<port>/iceberg}. */
  public String jdbcUrl() {
    return "jdbc:postgresql://" + Ports.LOOPBACK + ":" + port + "/" + DATABASE;
  }

  /** The superuser; trusted, so it has no password. */
  public String user() {
    return USER;
  }

  public int port() {
    return port;
  }

  /** The service folder under {@code target/it-work}. */
  public Path dir() {
    return serviceDir;
  }

  /** The folder under /tmp with the binaries, the cluster and the server log; gone after close. */
  public Path baseDir() {
    return baseDir;
  }

  public long startupMillis() {
    return startupMillis;
  }

  /**
   * {@code JdbcCatalog} properties on the {@value #DATABASE} database: {@code type=jdbc}, {@code
   * uri}, {@code jdbc.user}, {@code jdbc.schema-version=V1} and {@code warehouse}. No {@code
   * jdbc.password}: the server trusts loopback connections. For an {@code s3://} warehouse add
   * {@link S3ProxyServer#s3FileIoProperties()}.
   */
  public Map<String, String> jdbcCatalogProperties(String warehouse) {
    Map<String, String> props = new LinkedHashMap<>();
    props.put("type", "jdbc");
    props.put("uri", jdbcUrl());
    props.put("jdbc.user", USER);
    props.put("jdbc.schema-version", "V1");
    props.put("warehouse", warehouse);
    return props;
  }

  /** Stops the server ({@code pg_ctl stop -m fast}). Safe to call more than once. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      stop("fast");
    } finally {
      try {
        Runtime.getRuntime().removeShutdownHook(shutdownHook);
      } catch (IllegalStateException e) {
        // the JVM is already shutting down; the hook no longer matters
      }
      keepLogAndDelete();
    }
  }

  private void stop(String mode) {
    if (!Files.exists(dataDir().resolve("postmaster.pid"))) {
      return; // never started, or already gone
    }
    run("pg_ctl-stop", command("pg_ctl", "-D", dataDir().toString(), "-m", mode, "-w", "stop"));
    LOG.info("PostgreSQL at {} stopped", jdbcUrl());
  }

  private void stopAtJvmExit() {
    synchronized (this) {
      if (!closed) {
        LOG.warn("JVM exiting with PostgreSQL at {} still running; stopping it", jdbcUrl());
        try {
          stop("immediate");
        } finally {
          deleteTree(baseDir);
        }
      }
    }
  }

  private void keepLogAndDelete() {
    try {
      if (Files.exists(serverLog())) {
        Files.copy(
            serverLog(), serviceDir.resolve("postgres.log"), StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot copy " + serverLog() + " to " + serviceDir, e);
    } finally {
      deleteTree(baseDir);
    }
  }

  private static void deleteTree(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot delete " + dir, e);
    }
  }

  private Path dataDir() {
    return baseDir.resolve("data");
  }

  private Path serverLog() {
    return baseDir.resolve("postgres.log");
  }

  private List<String> command(String program, String... args) {
    List<String> command = new ArrayList<>(runAs);
    command.add(binDir.resolve(program).toString());
    command.addAll(List.of(args));
    return command;
  }

  private void run(String name, List<String> command) {
    Path output = serviceDir.resolve(name + ".out");
    int exit = Exec.run(command, baseDir, output, COMMAND_TIMEOUT_SECONDS);
    if (exit != 0) {
      throw new IllegalStateException(
          name
              + " failed with exit code "
              + exit
              + ": "
              + command
              + "\n"
              + Exec.tail(output)
              + "\nSee "
              + output
              + " and "
              + serverLog());
    }
  }

  private static boolean isRoot() {
    String uid = Exec.output(List.of("id", "-u"));
    if (uid == null) {
      throw new IllegalStateException("Cannot run 'id -u' to find out whether this is root");
    }
    return uid.trim().equals("0");
  }

  /**
   * A new folder under /tmp; when running as root it is handed to {@value #OS_USER}, and checked to
   * be writable by that user.
   */
  private static Path newBaseDir(boolean root) {
    Path dir;
    try {
      dir = Files.createTempDirectory(Path.of("/tmp"), "floe-postgres-");
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot create a PostgreSQL folder under /tmp", e);
    }
    if (root) {
      try {
        Files.setOwner(
            dir,
            dir.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName(OS_USER));
      } catch (IOException e) {
        deleteTree(dir);
        throw new UncheckedIOException(
            "Cannot give " + dir + " to the OS user '" + OS_USER + "' (does it exist?)", e);
      }
      List<String> check = List.of("runuser", "-u", OS_USER, "--", "test", "-w", dir.toString());
      if (Exec.output(check) == null) {
        deleteTree(dir);
        throw new IllegalStateException(
            "The OS user '" + OS_USER + "' cannot write to " + dir + " (tried " + check + ")");
      }
    }
    return dir;
  }

  /** Runs short external commands with a timeout. */
  private static final class Exec {
    private Exec() {}

    /** Runs {@code command} in {@code workDir} with its output in {@code output}; the exit code. */
    static int run(List<String> command, Path workDir, Path output, long timeoutSeconds) {
      ProcessBuilder builder =
          new ProcessBuilder(command)
              .directory(workDir.toFile())
              .redirectErrorStream(true)
              .redirectOutput(output.toFile());
      Map<String, String> env = builder.environment();
      env.keySet().removeIf(key -> key.startsWith("PG"));
      env.put("LC_ALL", "C");
      try {
        Process process = builder.start();
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
          process.destroyForcibly().waitFor();
          throw new IllegalStateException(
              "Timed out after " + timeoutSeconds + " s: " + command + "; see " + output);
        }
        return process.exitValue();
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot run " + command, e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("Interrupted while running " + command, e);
      }
    }

    /** The standard output of a quick command, or null if it cannot run or exits non-zero. */
    static String output(List<String> command) {
      try {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
          process.destroyForcibly();
          return null;
        }
        return process.exitValue() == 0 ? out : null;
      } catch (IOException e) {
        return null; // not installed
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("Interrupted while running " + command, e);
      }
    }

    /** The last lines of a command's output, for error messages. */
    static String tail(Path output) {
      try {
        List<String> lines = Files.readAllLines(output, StandardCharsets.UTF_8);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
      } catch (IOException e) {
        return "(cannot read " + output + ": " + e.getMessage() + ")";
      }
    }
  }
}
