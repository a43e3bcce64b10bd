/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.stack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A child JVM with its output in a log file. Closing stops it (SIGTERM, then SIGKILL after a grace
 * period); {@link #kill()} is {@code kill -9}. A shutdown hook kills every child still running when
 * the test JVM exits, so no run leaves processes behind.
 */
public final class JavaProcess implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(JavaProcess.class);
  private static final Set<Process> RUNNING = ConcurrentHashMap.newKeySet();

  static {
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(() -> RUNNING.forEach(Process::destroyForcibly), "kill-children"));
  }

  private final String name;
  private final Process process;
  private final Path log;

  private JavaProcess(String name, Process process, Path log) {
    this.name = name;
    this.process = process;
    this.log = log;
  }

  /**
   * Starts {@code mainClass} with the jars of {@code libDir} as its only classpath.
   *
   * @param jvmArgs extra JVM options (heap, system properties)
   */
  public static JavaProcess start(
      String name,
      Path libDir,
      List<String> jvmArgs,
      String mainClass,
      List<String> args,
      Path workDir) {
    List<String> command = new ArrayList<>();
    command.add(javaExecutable());
    command.addAll(serviceOptions());
    command.addAll(jvmArgs);
    command.add("-cp");
    command.add(libDir.toAbsolutePath() + "/*");
    command.add(mainClass);
    command.addAll(args);
    Path log = workDir.resolve(name + ".log");
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(workDir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    builder.environment().remove("CLASSPATH");
    builder.environment().remove("JAVA_TOOL_OPTIONS");
    try {
      Process process = builder.start();
      RUNNING.add(process);
      LOG.info("Started {} (pid {}), log {}", name, process.pid(), log);
      return new JavaProcess(name, process, log);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot start " + name + ": " + command, e);
    }
  }

  /** Runs {@code mainClass} to completion and returns its exit code. */
  public static int run(
      String name,
      Path libDir,
      List<String> jvmArgs,
      String mainClass,
      List<String> args,
      Path workDir) {
    try (JavaProcess p = start(name, libDir, jvmArgs, mainClass, args, workDir)) {
      if (!p.process.waitFor(120, TimeUnit.SECONDS)) {
        throw new IllegalStateException(name + " did not finish in 120 s; see " + p.log);
      }
      return p.process.exitValue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while running " + name, e);
    }
  }

  /**
   * The JVM options every service the tests start gets first ({@code floe.it.service.jvm.options},
   * set by the build: the C1 compiler only in the tests, none in the benchmarks).
   */
  private static List<String> serviceOptions() {
    String options = System.getProperty("floe.it.service.jvm.options", "").trim();
    return options.isEmpty() ? List.of() : List.of(options.split("\\s+"));
  }

  private static String javaExecutable() {
    return Paths.get(System.getProperty("java.home"), "bin", "java").toString();
  }

  public String name() {
    return name;
  }

  public long pid() {
    return process.pid();
  }

  public Path log() {
    return log;
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  /** Throws with the log's location if the process has exited. */
  public void checkAlive() {
    if (!process.isAlive()) {
      throw new IllegalStateException(
          name + " exited with code " + process.exitValue() + "; see " + log);
    }
  }

  /** {@code kill -9}: no shutdown hooks, no clean close. */
  public void kill() {
    process.destroyForcibly();
    awaitExit(10);
  }

  @Override
  public void close() {
    if (process.isAlive()) {
      process.destroy();
      if (!awaitExit(30)) {
        LOG.warn("{} did not stop in 30 s; killing it", name);
        process.destroyForcibly();
        awaitExit(10);
      }
    }
    RUNNING.remove(process);
  }

  private boolean awaitExit(int seconds) {
    try {
      return process.waitFor(seconds, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
      return false;
    }
  }
}
