/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.it.stack.PluginInstall;
import io.floe.it.stack.StackDirs;
import java.io.File;
import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;

/**
 * The storage add-ons' archives, and the GCS add-on as far as it can run here. No Google endpoint
 * is reachable, and the fake of Cloud Storage that Google's client library ships ({@code
 * LocalStorageHelper} of google-cloud-nio) lives inside one JVM, so no Connect worker can reach it:
 * the plugin zip with the add-on unzipped over it, as README tells users to install it, is loaded
 * in a class loader of its {@code lib/} alone, and {@link GcsTableProbe} runs a table's whole file
 * cycle through GCSFileIO on the fake inside it. What this leaves unproven: Google's HTTP
 * transport, authentication, and a Connect worker's plugin isolation with these jars.
 */
class StorageAddOnsIT {
  private static final String ADD_ON_LIB = "floe-iceberg-sink-" + version() + "/lib";

  /**
   * No add-on carries a jar of the plugin's (the build's banDuplicateClasses checks their classes),
   * but the GCS add-on's Guava 33, which replaces the plugin's Guava 14. {@code annotations} of
   * Google's (com.google.android) and of the AWS SDK are two artifacts of one file name.
   */
  @Test
  void eachAddOnHoldsOnlyJarsThePluginLacks() throws Exception {
    List<String> pluginJars = jarArtifacts(PluginInstall.zip());
    for (String addOn : List.of("azure", "gcs")) {
      assertThat(jarArtifacts(PluginInstall.addOnZip(addOn)))
          .as("the %s add-on: no Kafka, logging or Netty jar", addOn)
          .noneMatch(jar -> jar.startsWith("kafka") || jar.startsWith("connect-"))
          .noneMatch(jar -> jar.startsWith("slf4j") || jar.startsWith("log4j"))
          .noneMatch(jar -> jar.startsWith("logback") || jar.startsWith("netty-"));
    }
    assertThat(jarArtifacts(PluginInstall.addOnZip("azure")))
        .contains("iceberg-azure", "azure-storage-file-datalake", "azure-identity")
        .doesNotContainAnyElementsOf(pluginJars);
    List<String> gcs = jarArtifacts(PluginInstall.addOnZip("gcs"));
    assertThat(gcs).contains("iceberg-gcp", "google-cloud-storage", "guava");
    assertThat(gcs.stream().filter(jar -> !List.of("guava", "annotations").contains(jar)))
        .doesNotContainAnyElementsOf(pluginJars);
  }

  @Test
  void gcsFileIoWritesAndReadsATableThroughNewFilesOnlyFromThePluginsJars() throws Exception {
    Path plugin = PluginInstall.pluginPathWithAddOn("gcs");
    Path lib = plugin.resolve(ADD_ON_LIB);
    // README: the add-on's Guava 33 replaces the plugin's Guava 14
    try (Stream<Path> jars = Files.list(lib)) {
      for (Path jar :
          jars.filter(j -> j.getFileName().toString().startsWith("guava-14.")).toList()) {
        Files.delete(jar);
      }
    }
    List<URL> urls = new ArrayList<>();
    try (Stream<Path> jars = Files.list(lib)) {
      for (Path jar : jars.sorted().toList()) {
        urls.add(jar.toUri().toURL());
      }
    }
    for (String entry : System.getProperty("floe.gcs.fake.classpath").split(File.pathSeparator)) {
      urls.add(Paths.get(entry).toUri().toURL());
    }
    urls.add(testClasses());
    Path database = StackDirs.newServiceDir("gcs-catalog").resolve("catalog.db");

    Map<String, String> found;
    try (URLClassLoader isolated =
        new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader())) {
      @SuppressWarnings("unchecked")
      Function<String, String> probe =
          (Function<String, String>)
              isolated
                  .loadClass(GcsTableProbe.class.getName())
                  .getDeclaredConstructor()
                  .newInstance();
      // as Connect runs a plugin's code: with its class loader as the thread's context loader
      Thread thread = Thread.currentThread();
      ClassLoader previous = thread.getContextClassLoader();
      String answer;
      thread.setContextClassLoader(isolated);
      try {
        answer = probe.apply(database.toString());
      } finally {
        thread.setContextClassLoader(previous);
      }
      found =
          Arrays.stream(answer.split("\n"))
              .map(line -> line.split("=", 2))
              .collect(Collectors.toMap(pair -> pair[0], pair -> pair[1]));
    }

    assertThat(found.get("table")).isEqualTo("gs://floe-lake/warehouse/iot/readings");
    assertThat(found.get("data")).startsWith("gs://floe-lake/warehouse/iot/readings/data/");
    assertThat(Long.parseLong(found.get("stored"))).isPositive();
    assertThat(found.get("ids")).isEqualTo("[0, 1, 2]");
    assertThat(found.get("overwrite"))
        .as("a second file at a taken location, through NewFilesOnly")
        .isEqualTo("AlreadyExistsException");
    assertThat(jarIn(found.get("fileio")).getParent()).isEqualTo(lib);
    assertThat(jarIn(found.get("fileio")).getFileName().toString()).startsWith("iceberg-gcp-");
    assertThat(jarIn(found.get("storage")).getParent()).isEqualTo(lib);
    assertThat(jarIn(found.get("guava")).getParent()).isEqualTo(lib);
    assertThat(jarIn(found.get("guava")).getFileName().toString()).startsWith("guava-33.");
  }

  /** The artifact names of the jars under {@code lib/} in {@code zip}, versions removed. */
  private static List<String> jarArtifacts(Path zip) throws IOException {
    try (ZipFile archive = new ZipFile(zip.toFile())) {
      return archive.stream()
          .map(ZipEntry::getName)
          .filter(name -> name.contains("/lib/") && name.endsWith(".jar"))
          .map(name -> name.substring(name.lastIndexOf('/') + 1))
          .map(name -> name.replaceFirst("-\\d[^-]*(-[a-z]+)?\\.jar$", ""))
          .sorted()
          .toList();
    }
  }

  /** The jar a class was loaded from, by the code source location the probe reported. */
  private static Path jarIn(String location) {
    return Paths.get(URI.create(location));
  }

  private static URL testClasses() throws MalformedURLException {
    return GcsTableProbe.class.getProtectionDomain().getCodeSource().getLocation();
  }

  private static String version() {
    return System.getProperty("floe.version");
  }
}
