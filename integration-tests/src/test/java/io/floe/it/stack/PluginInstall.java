/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.stack;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

/**
 * Installs the packaged Floe zip the way an operator does: unzipped into a folder that a worker's
 * {@code plugin.path} names.
 */
public final class PluginInstall {
  private static Path installed;

  private PluginInstall() {}

  /**
   * The plugin zip, from the {@code floe.plugin.zip} system property. The build sets it to the
   * packaging module's zip as Maven resolved it (this build's own when the packaging module is part
   * of it); nothing looks for a zip by path, so an old one lying around is never tested.
   */
  public static Path zip() {
    String configured = System.getProperty("floe.plugin.zip");
    if (configured == null || configured.isBlank()) {
      throw new IllegalStateException(
          "System property floe.plugin.zip is not set: run the tests through Maven with the"
              + " packaging module, e.g. 'mvn verify -pl integration-tests -am'");
    }
    Path zip = Paths.get(configured);
    if (!Files.isRegularFile(zip)) {
      throw new IllegalStateException("Plugin zip " + zip + " (floe.plugin.zip) does not exist");
    }
    return zip;
  }

  /** The plugin.path folder holding the unzipped plugin; unzipped once per test JVM. */
  public static synchronized Path pluginPath() {
    if (installed == null) {
      Path target = StackDirs.newServiceDir("plugins");
      unzip(zip(), target);
      installed = target;
    }
    return installed;
  }

  /**
   * A new plugin.path folder holding the plugin with the storage add-on {@code name} ({@code azure}
   * or {@code gcs}) unzipped over it, as README's "Catalogs and storage" tells users to install it.
   */
  public static Path pluginPathWithAddOn(String name) {
    Path target = StackDirs.newServiceDir("plugins-" + name);
    unzip(zip(), target);
    unzip(addOnZip(name), target);
    return target;
  }

  /**
   * The archive of the storage add-on {@code name}, from the {@code floe.addon.<name>} system
   * property, which the build sets to the add-on module's archive as Maven resolved it.
   */
  public static Path addOnZip(String name) {
    String configured = System.getProperty("floe.addon." + name);
    if (configured == null || configured.isBlank()) {
      throw new IllegalStateException(
          "System property floe.addon."
              + name
              + " is not set: run the tests through Maven with the packaging modules, e.g. 'mvn"
              + " verify -pl integration-tests -am'");
    }
    return Paths.get(configured);
  }

  /**
   * Unzips the built zip into {@code pluginPath}, next to other plugins a worker's {@code
   * plugin.path} may hold.
   */
  public static void installInto(Path pluginPath) {
    unzip(zip(), pluginPath);
  }

  static void unzip(Path zip, Path target) {
    try (ZipInputStream in = new ZipInputStream(Files.newInputStream(zip))) {
      for (ZipEntry entry; (entry = in.getNextEntry()) != null; ) {
        Path out = target.resolve(entry.getName()).normalize();
        if (!out.startsWith(target)) {
          throw new IllegalStateException(
              "Zip entry outside the target folder: " + entry.getName());
        }
        if (entry.isDirectory()) {
          Files.createDirectories(out);
        } else {
          Files.createDirectories(out.getParent());
          copy(in, out);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot unzip " + zip, e);
    }
  }

  private static void copy(InputStream in, Path out) throws IOException {
    Files.copy(in, out, StandardCopyOption.REPLACE_EXISTING);
  }
}
