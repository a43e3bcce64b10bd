/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.floe.it.stack.ConfigExamples;
import io.floe.it.stack.KafkaRuntime;
import io.floe.it.stack.PluginInstall;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;

/** The released artifact itself: Confluent Hub layout, what it bundles and what it must not. */
class PluginZipIT {
  private static final String VERSION = System.getProperty("floe.version");
  private static final String ROOT = "floe-iceberg-sink-" + VERSION + "/";

  @Test
  void hasTheConfluentHubLayoutAndManifest() throws IOException {
    try (ZipFile zip = new ZipFile(PluginInstall.zip().toFile())) {
      assertThat(zip.stream().map(ZipEntry::getName)).allMatch(name -> name.startsWith(ROOT));
      for (String doc : List.of("README.md", "LICENSE", "NOTICE", "THIRD-PARTY.txt")) {
        assertThat(zip.getEntry(ROOT + "doc/" + doc)).as("doc/%s", doc).isNotNull();
      }
      for (Path example : ConfigExamples.all()) {
        assertThat(zip.getEntry(ROOT + "etc/" + example.getFileName()))
            .as("etc/%s", example.getFileName())
            .isNotNull();
      }
      JsonNode manifest;
      try (InputStream in = zip.getInputStream(zip.getEntry(ROOT + "manifest.json"))) {
        manifest = new ObjectMapper().readTree(in);
      }
      assertThat(manifest.path("name").asText()).isEqualTo("floe-iceberg-sink");
      assertThat(manifest.path("version").asText()).isEqualTo(VERSION);
      assertThat(manifest.path("component_types").toString()).isEqualTo("[\"sink\",\"converter\"]");
      assertThat(manifest.path("license").get(0).path("name").asText())
          .isEqualTo("Apache License 2.0");
      assertThat(manifest.path("features").path("delivery_guarantee").toString())
          .isEqualTo("[\"exactly_once\"]");
      assertThat(manifest.path("owner").path("username").asText()).isNotBlank();
      assertThat(manifest.path("features").path("supported_encodings").toString())
          .as("any converter works")
          .isEqualTo("[\"any\"]");
      String logo = manifest.path("logo").asText();
      assertThat(logo).startsWith("assets/");
      assertThat(zip.getEntry(ROOT + logo)).as("the logo %s", logo).isNotNull();
      assertThat(manifest.path("owner").path("logo").asText()).isEqualTo(logo);
      assertThat(manifest.path("description").asText())
          .contains("exactly once", "deletion vectors", "schema registry", "route field");
      String requirements = manifest.path("requirements").toString();
      for (KafkaRuntime runtime : KafkaRuntime.values()) {
        assertThat(requirements)
            .as("the requirements name the tested Connect line %s", runtime.line())
            .contains(runtime.line() + ".x");
      }
    }
  }

  @Test
  void bundlesTheRuntimeButNoKafkaOrLoggingBindings() throws IOException {
    List<String> jars = new ArrayList<>();
    try (ZipFile zip = new ZipFile(PluginInstall.zip().toFile())) {
      zip.stream()
          .map(ZipEntry::getName)
          .filter(name -> name.startsWith(ROOT + "lib/") && name.endsWith(".jar"))
          .map(name -> name.substring((ROOT + "lib/").length()))
          .forEach(jars::add);
    }
    assertThat(jars)
        .noneMatch(jar -> jar.startsWith("kafka") || jar.startsWith("connect-"))
        .noneMatch(jar -> jar.startsWith("slf4j") || jar.startsWith("log4j"))
        .noneMatch(jar -> jar.startsWith("logback") || jar.startsWith("reload4j"))
        .noneMatch(jar -> jar.startsWith("netty-") || jar.startsWith("bundle-"));
    for (String required :
        List.of(
            "floe-connector-",
            "iceberg-core-",
            "iceberg-data-",
            "iceberg-parquet-",
            "iceberg-aws-",
            "s3-",
            "sts-",
            "kms-",
            "glue-",
            "iceberg-hive-metastore-",
            "hive-metastore-",
            "libthrift-",
            "apache5-client-",
            "url-connection-client-",
            "aws-msk-iam-auth-",
            "hadoop-common-",
            "hadoop-auth-",
            "hadoop-mapreduce-client-core-",
            "hadoop-shaded-guava-",
            "woodstox-core-",
            "stax2-api-",
            "commons-collections4-",
            "commons-configuration2-",
            "sqlite-jdbc-",
            "postgresql-",
            "avro-",
            "jackson-core-",
            "jackson-dataformat-yaml-",
            "snakeyaml-")) {
      assertThat(jars).as("lib/ holds %s*", required).anyMatch(jar -> jar.startsWith(required));
    }
  }

  @Test
  void isReproducible() throws IOException {
    Set<FileTime> times = new TreeSet<>();
    JsonNode manifest;
    try (ZipFile zip = new ZipFile(PluginInstall.zip().toFile())) {
      zip.stream().forEach(entry -> times.add(entry.getLastModifiedTime()));
      try (InputStream in = zip.getInputStream(zip.getEntry(ROOT + "manifest.json"))) {
        manifest = new ObjectMapper().readTree(in);
      }
    }
    assertThat(times)
        .as("entry times of the zip: one, project.build.outputTimestamp, not the build's clock")
        .hasSize(1);
    assertThat(manifest.path("release_date").asText())
        .isEqualTo(System.getProperty("floe.release.date"));
    Path lib = PluginInstall.pluginPath().resolve(ROOT).resolve("lib");
    try (JarFile jar = new JarFile(lib.resolve("floe-connector-" + VERSION + ".jar").toFile())) {
      assertThat(jar.stream().map(ZipEntry::getLastModifiedTime).distinct())
          .as("entry times of the connector jar")
          .containsExactlyElementsOf(times);
    }
  }

  @Test
  void registersEveryPluginForServiceLoading() throws IOException {
    Path lib = PluginInstall.pluginPath().resolve(ROOT).resolve("lib");
    try (JarFile jar = new JarFile(lib.resolve("floe-connector-" + VERSION + ".jar").toFile())) {
      assertThat(service(jar, "org.apache.kafka.connect.sink.SinkConnector"))
          .isEqualTo("io.floe.connect.IcebergSinkConnector");
      assertThat(service(jar, "org.apache.kafka.connect.storage.Converter"))
          .isEqualTo("io.floe.connect.avro.AvroConverter\nio.floe.connect.json.JsonConverter");
      assertThat(service(jar, "org.apache.kafka.connect.storage.HeaderConverter"))
          .isEqualTo("io.floe.connect.json.JsonConverter");
    }
  }

  private static String service(JarFile jar, String type) throws IOException {
    ZipEntry entry = jar.getEntry("META-INF/services/" + type);
    assertThat(entry).as("service file for %s", type).isNotNull();
    try (InputStream in = jar.getInputStream(entry)) {
      return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).trim();
    }
  }
}
