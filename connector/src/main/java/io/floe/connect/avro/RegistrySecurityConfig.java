/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.avro;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.Security;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.types.Password;

/**
 * The registry's authentication and TLS settings, named as in Confluent's converter: their keys,
 * and turning them into {@link RegistryEndpoint}s and an {@link SSLContext}. Secrets are {@code
 * PASSWORD} keys and appear in no message.
 */
final class RegistrySecurityConfig {
  static final String GROUP_AUTH = "Schema registry authentication";
  static final String GROUP_TLS = "Schema registry TLS";

  /** Where basic-auth credentials come from. */
  enum BasicAuthSource {
    /** From the user info of each URL ({@code https://user:password@host}); none without it. */
    URL,
    /** From {@code basic.auth.user.info}, for every URL. */
    USER_INFO,
    /** No basic authentication; URLs must carry no user info. */
    NONE
  }

  static final String BASIC_AUTH_CREDENTIALS_SOURCE = "basic.auth.credentials.source";
  static final String BASIC_AUTH_CREDENTIALS_SOURCE_DOC =
      "Where the registry's basic-auth credentials come from: URL (the user info of each"
          + " schema.registry.url, if any), USER_INFO (basic.auth.user.info) or NONE.";
  static final String BASIC_AUTH_CREDENTIALS_SOURCE_DEFAULT = BasicAuthSource.URL.name();

  static final String BASIC_AUTH_USER_INFO = "basic.auth.user.info";
  static final String BASIC_AUTH_USER_INFO_DOC =
      "Basic-auth credentials as user:password, used with basic.auth.credentials.source=USER_INFO.";

  static final String BEARER_AUTH_TOKEN = "bearer.auth.token";
  static final String BEARER_AUTH_TOKEN_DOC =
      "A static bearer token sent to the registry; not combinable with basic authentication.";

  static final String SSL_PREFIX = "schema.registry.ssl.";
  static final String TRUSTSTORE_LOCATION = SSL_PREFIX + "truststore.location";
  static final String TRUSTSTORE_LOCATION_DOC =
      "Trust store with the certificates that sign the registry's; the JVM's default when unset.";
  static final String TRUSTSTORE_PASSWORD = SSL_PREFIX + "truststore.password";
  static final String TRUSTSTORE_PASSWORD_DOC = "Password of the trust store.";
  static final String TRUSTSTORE_TYPE = SSL_PREFIX + "truststore.type";
  static final String TRUSTSTORE_TYPE_DOC = "Type of the trust store, e.g. JKS or PKCS12.";
  static final String KEYSTORE_LOCATION = SSL_PREFIX + "keystore.location";
  static final String KEYSTORE_LOCATION_DOC =
      "Key store with the client certificate and key, for registries that require TLS client"
          + " authentication.";
  static final String KEYSTORE_PASSWORD = SSL_PREFIX + "keystore.password";
  static final String KEYSTORE_PASSWORD_DOC = "Password of the key store.";
  static final String KEYSTORE_TYPE = SSL_PREFIX + "keystore.type";
  static final String KEYSTORE_TYPE_DOC = "Type of the key store, e.g. JKS or PKCS12.";
  static final String KEY_PASSWORD = SSL_PREFIX + "key.password";
  static final String KEY_PASSWORD_DOC =
      "Password of the private key in the key store; the key store's password when unset.";
  static final String STORE_TYPE_DEFAULT = "JKS";

  private RegistrySecurityConfig() {}

  static void define(ConfigDef def) {
    int order = 0;
    def.define(
        BASIC_AUTH_CREDENTIALS_SOURCE,
        Type.STRING,
        BASIC_AUTH_CREDENTIALS_SOURCE_DEFAULT,
        ConfigDef.ValidString.in(names(BasicAuthSource.values())),
        Importance.MEDIUM,
        BASIC_AUTH_CREDENTIALS_SOURCE_DOC,
        GROUP_AUTH,
        ++order,
        Width.SHORT,
        "Basic auth source");
    def.define(
        BASIC_AUTH_USER_INFO,
        Type.PASSWORD,
        null,
        Importance.MEDIUM,
        BASIC_AUTH_USER_INFO_DOC,
        GROUP_AUTH,
        ++order,
        Width.MEDIUM,
        "Basic auth user info");
    def.define(
        BEARER_AUTH_TOKEN,
        Type.PASSWORD,
        null,
        Importance.MEDIUM,
        BEARER_AUTH_TOKEN_DOC,
        GROUP_AUTH,
        ++order,
        Width.LONG,
        "Bearer token");

    order = 0;
    defineStore(def, TRUSTSTORE_LOCATION, TRUSTSTORE_LOCATION_DOC, ++order, "Trust store");
    definePassword(def, TRUSTSTORE_PASSWORD, TRUSTSTORE_PASSWORD_DOC, ++order, "Trust store pw");
    defineType(def, TRUSTSTORE_TYPE, TRUSTSTORE_TYPE_DOC, ++order, "Trust store type");
    defineStore(def, KEYSTORE_LOCATION, KEYSTORE_LOCATION_DOC, ++order, "Key store");
    definePassword(def, KEYSTORE_PASSWORD, KEYSTORE_PASSWORD_DOC, ++order, "Key store password");
    defineType(def, KEYSTORE_TYPE, KEYSTORE_TYPE_DOC, ++order, "Key store type");
    definePassword(def, KEY_PASSWORD, KEY_PASSWORD_DOC, ++order, "Key password");
  }

  private static void defineStore(ConfigDef def, String name, String doc, int order, String dn) {
    def.define(name, Type.STRING, null, Importance.LOW, doc, GROUP_TLS, order, Width.LONG, dn);
  }

  private static void definePassword(ConfigDef def, String name, String doc, int order, String dn) {
    def.define(name, Type.PASSWORD, null, Importance.LOW, doc, GROUP_TLS, order, Width.MEDIUM, dn);
  }

  private static void defineType(ConfigDef def, String name, String doc, int order, String dn) {
    def.define(
        name,
        Type.STRING,
        STORE_TYPE_DEFAULT,
        new KeyStoreTypeValidator(),
        Importance.LOW,
        doc,
        GROUP_TLS,
        order,
        Width.SHORT,
        dn);
  }

  /** A key store type this JVM can load, in any letter case. */
  static final class KeyStoreTypeValidator implements ConfigDef.Validator {
    @Override
    public void ensureValid(String name, Object value) {
      String type = String.valueOf(value).trim();
      boolean known =
          Security.getAlgorithms("KeyStore").stream().anyMatch(t -> t.equalsIgnoreCase(type));
      if (!known) {
        throw new ConfigException(
            name,
            value,
            "is not a key store type of this JVM: " + Security.getAlgorithms("KeyStore"));
      }
    }

    @Override
    public String toString() {
      return "a KeyStore type, e.g. JKS or PKCS12";
    }
  }

  /**
   * One endpoint per URL, each with its {@code Authorization} header.
   *
   * @throws ConfigException when the authentication settings contradict each other or are
   *     incomplete; the message names keys, never values
   */
  static List<RegistryEndpoint> endpoints(AbstractConfig config, List<String> urls) {
    BasicAuthSource source =
        BasicAuthSource.valueOf(config.getString(BASIC_AUTH_CREDENTIALS_SOURCE));
    Password userInfo = config.getPassword(BASIC_AUTH_USER_INFO);
    Password bearer = config.getPassword(BEARER_AUTH_TOKEN);
    String common = null;
    if (userInfo != null && source != BasicAuthSource.USER_INFO) {
      throw new ConfigException(
          BASIC_AUTH_USER_INFO
              + " is set but not used: set "
              + BASIC_AUTH_CREDENTIALS_SOURCE
              + "=USER_INFO");
    }
    if (source == BasicAuthSource.USER_INFO) {
      if (bearer != null) {
        throw new ConfigException(
            BEARER_AUTH_TOKEN + " cannot be combined with basic authentication");
      }
      common = basic(userInfo == null ? null : userInfo.value(), BASIC_AUTH_USER_INFO);
    } else if (bearer != null) {
      if (bearer.value().isBlank()) {
        throw new ConfigException(BEARER_AUTH_TOKEN + " is empty");
      }
      common = "Bearer " + bearer.value().trim();
    }
    List<RegistryEndpoint> endpoints = new ArrayList<>();
    for (String url : urls) {
      URI uri = URI.create(url.trim());
      String embedded = uri.getRawUserInfo();
      String authorization = common;
      if (embedded != null) {
        if (source != BasicAuthSource.URL || bearer != null) {
          throw new ConfigException(
              "A "
                  + AvroConverterConfig.SCHEMA_REGISTRY_URL
                  + " entry carries user info, which is only used with "
                  + BASIC_AUTH_CREDENTIALS_SOURCE
                  + "=URL and no "
                  + BEARER_AUTH_TOKEN);
        }
        authorization =
            basic(
                URLDecoder.decode(embedded.replace("+", "%2B"), StandardCharsets.UTF_8),
                AvroConverterConfig.SCHEMA_REGISTRY_URL);
      }
      endpoints.add(new RegistryEndpoint(withoutUserInfo(uri), authorization));
    }
    return List.copyOf(endpoints);
  }

  private static String basic(String userInfo, String key) {
    if (userInfo == null || userInfo.indexOf(':') < 1) {
      throw new ConfigException(
          key + " must hold basic-auth credentials as user:password with a non-empty user");
    }
    return "Basic " + Base64.getEncoder().encodeToString(userInfo.getBytes(StandardCharsets.UTF_8));
  }

  private static URI withoutUserInfo(URI uri) {
    String path = uri.getRawPath() == null ? "" : uri.getRawPath();
    while (path.endsWith("/")) {
      path = path.substring(0, path.length() - 1);
    }
    String port = uri.getPort() < 0 ? "" : ":" + uri.getPort();
    return URI.create(
        uri.getScheme().toLowerCase(Locale.ROOT) + "://" + uri.getHost() + port + path);
  }

  /**
   * The TLS context for the registry client: from the configured trust and key stores, or empty for
   * the JVM's default when neither is set.
   *
   * @throws ConfigException when a store cannot be read; the message names the key and file
   */
  static Optional<SSLContext> sslContext(AbstractConfig config) {
    String trustStore = config.getString(TRUSTSTORE_LOCATION);
    String keyStore = config.getString(KEYSTORE_LOCATION);
    if (trustStore == null && keyStore == null) {
      return Optional.empty();
    }
    try {
      TrustManagerFactory trust = null;
      if (trustStore != null) {
        trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(
            load(
                TRUSTSTORE_LOCATION,
                trustStore,
                config.getString(TRUSTSTORE_TYPE),
                config.getPassword(TRUSTSTORE_PASSWORD)));
      }
      KeyManagerFactory keys = null;
      if (keyStore != null) {
        Password storePassword = config.getPassword(KEYSTORE_PASSWORD);
        Password keyPassword = config.getPassword(KEY_PASSWORD);
        keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(
            load(KEYSTORE_LOCATION, keyStore, config.getString(KEYSTORE_TYPE), storePassword),
            chars(keyPassword != null ? keyPassword : storePassword));
      }
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(
          keys == null ? null : keys.getKeyManagers(),
          trust == null ? null : trust.getTrustManagers(),
          null);
      return Optional.of(context);
    } catch (GeneralSecurityException e) {
      throw new ConfigException(
          "Cannot set up TLS for the schema registry from "
              + SSL_PREFIX
              + "*: "
              + e.getClass().getSimpleName()
              + ": "
              + e.getMessage());
    }
  }

  private static KeyStore load(String key, String location, String type, Password password)
      throws GeneralSecurityException {
    KeyStore store = KeyStore.getInstance(type.trim());
    try (InputStream in = Files.newInputStream(Path.of(location))) {
      store.load(in, chars(password));
      return store;
    } catch (IOException e) {
      throw new ConfigException(
          key
              + ": cannot read the "
              + type
              + " store "
              + location
              + " (a wrong password reads as a corrupt file): "
              + e.getMessage());
    }
  }

  private static char[] chars(Password password) {
    return password == null ? null : password.value().toCharArray();
  }

  private static String[] names(Enum<?>[] values) {
    return Arrays.stream(values).map(Enum::name).toArray(String[]::new);
  }
}
