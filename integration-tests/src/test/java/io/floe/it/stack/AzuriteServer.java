/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.stack;

import com.azure.storage.common.StorageSharedKeyCredential;
import com.azure.storage.file.datalake.DataLakeServiceClientBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Azurite, Microsoft's emulator of Azure Storage (npm package {@code azurite}), its blob service
 * bound to 127.0.0.1 with one storage account whose key the test makes. ADLSFileIO reaches it
 * through the Data Lake client: writes, reads, existence checks and deletes work; Azurite answers
 * the Data Lake API's listing of paths with 400, so a file IO's {@code listPrefix} (orphan-file
 * removal) cannot be run against it.
 *
 * <p>The package is installed by {@code npm} (Node.js 20 or later on the {@code PATH}) once per
 * machine into {@code ~/.cache/floe-it/azurite-<version>}; later runs use that folder and need no
 * network.
 */
public final class AzuriteServer implements AutoCloseable {
  /** The newest Azurite that runs on Node.js 20 (3.36 and later ask for 21 or 22). */
  public static final String VERSION = "3.35.0";

  public static final String ACCOUNT = "floelake";
  private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
  private static final long INSTALL_TIMEOUT_SECONDS = 600;

  private final Process process;
  private final Path log;
  private final int port;
  private final String key;

  private AzuriteServer(Process process, Path log, int port, String key) {
    this.process = process;
    this.log = log;
    this.port = port;
    this.key = key;
  }

  /**
   * Starts Azurite's blob service with an account {@value #ACCOUNT} whose key holds {@code tag}.
   */
  public static AzuriteServer start(String tag) {
    Path blob = installed().resolve("node_modules").resolve(".bin").resolve("azurite-blob");
    Path dir = StackDirs.newServiceDir("azurite");
    Path log = dir.resolve("azurite.log");
    int port = Ports.free();
    String key = accountKey(tag);
    ProcessBuilder builder =
        new ProcessBuilder(
                blob.toString(),
                "--blobHost",
                Ports.LOOPBACK,
                "--blobPort",
                Integer.toString(port),
                "--location",
                dir.resolve("data").toString(),
                "--skipApiVersionCheck",
                "--loose",
                "--disableTelemetry",
                "--disableProductStyleUrl")
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    builder.environment().put("AZURITE_ACCOUNTS", ACCOUNT + ":" + key);
    try {
      AzuriteServer azurite = new AzuriteServer(builder.start(), log, port, key);
      try {
        Ports.awaitOpen(port, START_TIMEOUT, "Azurite (log " + log + ")");
      } catch (RuntimeException e) {
        azurite.close();
        throw e;
      }
      return azurite;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot start " + blob, e);
    }
  }

  /**
   * A base64 account key (what Azure's shared-key signing decodes) whose text contains {@code tag}
   * (letters and digits): random bytes before and after it, so that it is a key of its own.
   */
  private static String accountKey(String tag) {
    byte[] random = new byte[24];
    new SecureRandom().nextBytes(random);
    String encoded = Base64.getEncoder().encodeToString(random);
    String text = encoded.substring(0, 16) + tag + encoded.substring(16);
    // base64 text of a whole number of 4-character groups decodes
    int pad = (4 - text.length() % 4) % 4;
    return text + "A".repeat(pad);
  }

  /** The installed package's folder, installing it with npm on first use on this machine. */
  private static synchronized Path installed() {
    Path target =
        Path.of(System.getProperty("user.home"), ".cache", "floe-it", "azurite-" + VERSION);
    if (Files.isExecutable(target.resolve("node_modules/.bin/azurite-blob"))) {
      return target;
    }
    Path npm =
        Executables.onPath("npm")
            .orElseThrow(
                () ->
                    new IllegalStateException(
                        "npm is not on the PATH: the ADLS tests install Azurite with npm (Node.js"
                            + " 20 or later)"));
    Path staging = target.resolveSibling(target.getFileName() + ".installing-" + pid());
    Path log = StackDirs.newServiceDir("azurite-install").resolve("npm.log");
    try {
      Files.createDirectories(staging);
      Process install =
          new ProcessBuilder(
                  npm.toString(),
                  "install",
                  "--prefix",
                  staging.toString(),
                  "--no-audit",
                  "--no-fund",
                  "--omit=dev",
                  "azurite@" + VERSION)
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .start();
      if (!install.waitFor(INSTALL_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        install.destroyForcibly();
        throw new IllegalStateException(
            "npm install azurite@" + VERSION + " timed out; see " + log);
      }
      if (install.exitValue() != 0) {
        throw new IllegalStateException("npm install azurite@" + VERSION + " failed; see " + log);
      }
      try {
        Files.move(staging, target, StandardCopyOption.ATOMIC_MOVE);
      } catch (java.nio.file.FileAlreadyExistsException
          | java.nio.file.DirectoryNotEmptyException installedMeanwhile) {
        // another test JVM installed it first: use that one
      }
      return target;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot install azurite@" + VERSION + " into " + target, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted installing Azurite", e);
    }
  }

  private static long pid() {
    return ProcessHandle.current().pid();
  }

  /** The account's key: a secret, never to be found in a log or an answer. */
  public String key() {
    return key;
  }

  public Path log() {
    return log;
  }

  /** The blob endpoint of the account, as Azure's clients take it. */
  public String endpoint() {
    return "http://" + Ports.LOOPBACK + ":" + port + "/" + ACCOUNT;
  }

  /** The host an {@code abfs://} location names for the account. */
  public static String accountHost() {
    return ACCOUNT + ".dfs.core.windows.net";
  }

  /** {@code abfs://<container>@<account host>/<path>}. */
  public static String location(String container, String path) {
    return "abfs://" + container + "@" + accountHost() + "/" + path;
  }

  /** Creates a container (a Data Lake file system). */
  public void createContainer(String container) {
    new DataLakeServiceClientBuilder()
        .endpoint(endpoint())
        .credential(new StorageSharedKeyCredential(ACCOUNT, key))
        .buildClient()
        .createFileSystem(container);
  }

  /**
   * The properties of Iceberg's ADLSFileIO on this account, with the key in clear text: {@code
   * io-impl}, the shared key's account name and key, and the account host's endpoint ({@code
   * adls.connection-string.<host>}).
   */
  public Map<String, String> fileIoProperties() {
    Map<String, String> props = new LinkedHashMap<>();
    props.put("io-impl", "org.apache.iceberg.azure.adlsv2.ADLSFileIO");
    props.put("adls.auth.shared-key.account.name", ACCOUNT);
    props.put("adls.auth.shared-key.account.key", key);
    props.put("adls.connection-string." + accountHost(), endpoint());
    return props;
  }

  @Override
  public void close() {
    Executables.stop(process);
  }
}
