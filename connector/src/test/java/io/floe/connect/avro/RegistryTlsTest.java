/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.avro;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.apache.avro.Schema;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLS to the registry, with a key pair made by the JDK's keytool: the server presents it and
 * requires a client certificate, and the client trusts it and presents it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RegistryTlsTest {
  private static final String PASSWORD = "store-pw-1";
  private static final String SCHEMA = "{\"type\":\"record\",\"name\":\"R\",\"fields\":[]}";

  private Path dir;
  private Path store;
  private HttpsServer server;

  @BeforeAll
  void startHttpsRegistry(@TempDir Path tempDir) throws Exception {
    dir = tempDir;
    Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
    assumeTrue(Files.isExecutable(keytool), "keytool is needed to make a key pair");
    store = dir.resolve("registry.p12");
    Process process =
        new ProcessBuilder(
                keytool.toString(),
                "-genkeypair",
                "-alias",
                "registry",
                "-keyalg",
                "EC",
                "-groupname",
                "secp256r1",
                "-validity",
                "2",
                "-dname",
                "CN=127.0.0.1",
                "-ext",
                "san=ip:127.0.0.1",
                "-storetype",
                "PKCS12",
                "-keystore",
                store.toString(),
                "-storepass",
                PASSWORD,
                "-keypass",
                PASSWORD)
            .redirectErrorStream(true)
            .start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as(output).isZero();

    KeyStore keys = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(store)) {
      keys.load(in, PASSWORD.toCharArray());
    }
    KeyManagerFactory keyManagers =
        KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    keyManagers.init(keys, PASSWORD.toCharArray());
    TrustManagerFactory trust =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trust.init(keys);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(keyManagers.getKeyManagers(), trust.getTrustManagers(), null);

    server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setHttpsConfigurator(
        new HttpsConfigurator(context) {
          @Override
          public void configure(HttpsParameters params) {
            params.setNeedClientAuth(true);
          }
        });
    server.createContext(
        "/schemas/ids/1",
        exchange -> {
          byte[] body = ("{\"schema\":" + quote(SCHEMA) + "}").getBytes(StandardCharsets.UTF_8);
          exchange.sendResponseHeaders(200, body.length);
          exchange.getResponseBody().write(body);
          exchange.close();
        });
    server.start();
  }

  @AfterAll
  void stopRegistry() {
    if (server != null) {
      server.stop(0);
    }
  }

  private String url() {
    return "https://127.0.0.1:" + server.getAddress().getPort();
  }

  private Map<String, String> tls() {
    Map<String, String> props = new HashMap<>();
    props.put(AvroConverterConfig.SCHEMA_REGISTRY_URL, url());
    props.put(AvroConverterConfig.RETRIES, "0");
    props.put(RegistrySecurityConfig.TRUSTSTORE_LOCATION, store.toString());
    props.put(RegistrySecurityConfig.TRUSTSTORE_PASSWORD, PASSWORD);
    props.put(RegistrySecurityConfig.TRUSTSTORE_TYPE, "PKCS12");
    props.put(RegistrySecurityConfig.KEYSTORE_LOCATION, store.toString());
    props.put(RegistrySecurityConfig.KEYSTORE_PASSWORD, PASSWORD);
    props.put(RegistrySecurityConfig.KEYSTORE_TYPE, "pkcs12");
    return props;
  }

  private static SchemaRegistryClient client(Map<String, String> props) {
    return SchemaRegistryClient.create(new AvroConverterConfig(props), d -> {});
  }

  @Test
  void fetchesOverTlsWithTheConfiguredStores() {
    assertThat(client(tls()).schemaById(1)).isEqualTo(new Schema.Parser().parse(SCHEMA));
  }

  @Test
  void aServerCertificateNotTrustedMakesTheRegistryUnusable() {
    Map<String, String> props = tls();
    props.remove(RegistrySecurityConfig.TRUSTSTORE_LOCATION);
    assertThatThrownBy(() -> client(props).schemaById(1))
        .isInstanceOf(SchemaRegistryException.class)
        .hasMessageContaining("SSLHandshakeException");
  }

  @Test
  void aWrongStorePasswordIsAConfigErrorThatDoesNotShowIt() {
    Map<String, String> props = tls();
    props.put(RegistrySecurityConfig.TRUSTSTORE_PASSWORD, "wrong-secret");
    assertThatThrownBy(() -> new AvroConverterConfig(props))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining(RegistrySecurityConfig.TRUSTSTORE_LOCATION)
        .hasMessageNotContaining("wrong-secret")
        .hasMessageNotContaining(PASSWORD);
  }

  @Test
  void aMissingStoreOrUnknownStoreTypeIsAConfigError() {
    Map<String, String> missing = tls();
    missing.put(RegistrySecurityConfig.KEYSTORE_LOCATION, dir.resolve("nope.p12").toString());
    assertThatThrownBy(() -> new AvroConverterConfig(missing))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining(RegistrySecurityConfig.KEYSTORE_LOCATION);
    Map<String, String> type = tls();
    type.put(RegistrySecurityConfig.TRUSTSTORE_TYPE, "NOPE");
    assertThatThrownBy(() -> new AvroConverterConfig(type))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining(RegistrySecurityConfig.TRUSTSTORE_TYPE);
  }

  private static String quote(String text) {
    return "\"" + text.replace("\"", "\\\"") + "\"";
  }
}
