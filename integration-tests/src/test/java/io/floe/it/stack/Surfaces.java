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
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.avro.file.DataFileReader;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.DatumReader;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The text of every place a secret could leak to, for searching: whole topics (keys, values and
 * headers), whole folders (Avro files decoded as well, since manifests are compressed), and the
 * answers of Connect's REST API.
 */
public final class Surfaces {
  private Surfaces() {}

  /** Every record of {@code topic}, read from the start until it has been quiet for 2 s. */
  public static String topic(KafkaBroker broker, String topic) {
    StringBuilder text = new StringBuilder();
    Map<String, Object> props = new HashMap<>(broker.adminLogin());
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
    props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    props.put(ConsumerConfig.GROUP_ID_CONFIG, "surface-" + topic + "-" + System.nanoTime());
    try (KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      consumer.subscribe(List.of(topic));
      int quiet = 0;
      while (quiet < 4) {
        var records = consumer.poll(Duration.ofMillis(500));
        quiet = records.isEmpty() ? quiet + 1 : 0;
        for (ConsumerRecord<byte[], byte[]> record : records) {
          text.append(bytes(record.key())).append(bytes(record.value()));
          for (Header header : record.headers()) {
            text.append(header.key()).append(bytes(header.value()));
          }
        }
      }
    }
    return text.toString();
  }

  /** The bytes of every file under {@code dir}, and the records of each Avro file as text. */
  public static String files(Path dir) {
    StringBuilder text = new StringBuilder();
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path file : paths.filter(Files::isRegularFile).toList()) {
        text.append(file).append('\n');
        text.append(bytes(Files.readAllBytes(file)));
        if (file.getFileName().toString().endsWith(".avro")) {
          text.append(avroRecords(file));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read " + dir, e);
    }
    return text.toString();
  }

  private static String avroRecords(Path file) throws IOException {
    StringBuilder text = new StringBuilder();
    DatumReader<GenericRecord> datum = new GenericDatumReader<>();
    try (DataFileReader<GenericRecord> reader = new DataFileReader<>(file.toFile(), datum)) {
      for (String key : reader.getMetaKeys()) {
        text.append(key).append('=').append(reader.getMetaString(key)).append('\n');
      }
      for (GenericRecord record : reader) {
        text.append(record).append('\n');
      }
    }
    return text.toString();
  }

  /** What Connect's REST API answers about its connectors, their tasks and their configs. */
  public static String rest(ConnectRest rest) {
    StringBuilder text = new StringBuilder();
    get(rest, "/connectors?expand=status&expand=info", text);
    ConnectRest.Response names = rest.send("GET", "/connectors", null);
    for (var name : names.body()) {
      String base = "/connectors/" + name.asText();
      for (String path :
          List.of("", "/config", "/status", "/tasks", "/tasks/0/status", "/topics", "/offsets")) {
        get(rest, base + path, text);
      }
    }
    get(rest, "/connector-plugins", text);
    get(rest, "/admin/loggers", text);
    return text.toString();
  }

  private static void get(ConnectRest rest, String path, StringBuilder text) {
    ConnectRest.Response response = rest.send("GET", path, null);
    text.append(path).append(" -> ").append(response.status()).append(' ');
    text.append(response.body()).append('\n');
  }

  private static String bytes(byte[] bytes) {
    return bytes == null ? "" : new String(bytes, StandardCharsets.ISO_8859_1);
  }
}
