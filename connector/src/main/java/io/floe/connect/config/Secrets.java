/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.config;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigValue;
import org.apache.kafka.common.config.types.Password;
import org.apache.kafka.connect.errors.ConnectException;

/**
 * The secret values of a connector's configuration, and the means to keep them out of what Floe
 * logs, throws or answers. Secret-bearing keys are the {@code PASSWORD} keys of Floe's {@code
 * ConfigDef} and every key, pass-through ones included, whose name says it holds a secret
 * (password, secret, token, credential, access key, private key, JAAS configuration, user info,
 * authorization header), unless its name says it holds a setting about one (a flag, a duration, a
 * class, a provider, an endpoint).
 *
 * <p>Exceptions from libraries (catalog clients, JDBC drivers, HTTP clients) sometimes quote a URL
 * or a property value; {@link #guard} replaces such an exception by one whose messages have the
 * secrets masked before it reaches Connect's logs and REST status.
 */
public final class Secrets {
  /** What a secret is replaced with. */
  public static final String MASK = "[hidden]";

  /** Shorter values are not masked: they would mask ordinary words and carry little secret. */
  static final int MIN_LENGTH = 4;

  private static final List<String> SECRET_NAME_PARTS =
      List.of(
          "password",
          "passwd",
          "secret",
          "token",
          "credential",
          "access-key",
          "access.key",
          "accesskey",
          "private-key",
          "private.key",
          "jaas",
          "user.info",
          "userinfo",
          "api-key",
          "api.key",
          "apikey",
          "authorization",
          "keystore.key",
          "sse.key",
          "account.key",
          "encryption-key",
          "decryption-key");

  /** Endings of names that speak of a secret without holding one. */
  private static final List<String> SETTING_SUFFIXES =
      List.of(
          "enabled",
          "-ms",
          ".ms",
          "-provider",
          ".provider",
          "-type",
          ".type",
          ".class",
          "-impl",
          ".url",
          "-url",
          ".uri",
          "-uri",
          "endpoint",
          ".location",
          ".path",
          ".mechanism",
          ".source",
          ".algorithm");

  /** The password of a URL's user info: {@code scheme://user:password@}. */
  private static final Pattern URL_PASSWORD = Pattern.compile("://[^/@:\\s]+:([^/@\\s]+)@");

  private final List<String> values;

  private Secrets(List<String> values) {
    this.values = values;
  }

  /** The secrets of a connector configuration (raw properties as the task receives them). */
  public static Secrets of(Map<String, String> props) {
    List<String> values = new ArrayList<>();
    props.forEach(
        (key, value) -> {
          if (holdsSecret(key, value)) {
            values.add(value);
          } else if (value != null) {
            urlPasswords(value).stream().filter(p -> p.length() >= MIN_LENGTH).forEach(values::add);
          }
        });
    // longest first, so a secret that contains another is masked whole
    values.sort(Comparator.comparingInt(String::length).reversed());
    return new Secrets(List.copyOf(values));
  }

  /** Whether {@code key} holds a secret, by Floe's ConfigDef type or by its name. */
  public static boolean isSecretKey(String key) {
    ConfigDef.ConfigKey defined = FloeSinkConfig.CONFIG_DEF.configKeys().get(key);
    if (defined != null && defined.type == ConfigDef.Type.PASSWORD) {
      return true;
    }
    String lower = key.toLowerCase(Locale.ROOT);
    if (SETTING_SUFFIXES.stream().anyMatch(lower::endsWith)) {
      return false;
    }
    return SECRET_NAME_PARTS.stream().anyMatch(lower::contains);
  }

  /**
   * Whether {@code key} holds a secret and {@code value} looks like one: long enough, and neither a
   * flag nor a number.
   */
  static boolean holdsSecret(String key, String value) {
    return value != null
        && value.strip().length() >= MIN_LENGTH
        && isSecretKey(key)
        && !value.equalsIgnoreCase("true")
        && !value.equalsIgnoreCase("false")
        && !value.chars().allMatch(Character::isDigit);
  }

  /**
   * The passwords in the user info of the URLs in {@code value} ({@code
   * scheme://user:password@host}, as a registry or JDBC URL may carry).
   */
  static List<String> urlPasswords(String value) {
    return URL_PASSWORD.matcher(value).results().map(m -> m.group(1)).toList();
  }

  /**
   * The keys of {@code props} that hold a secret value, by their name or as the password of a URL,
   * sorted.
   */
  public static List<String> keysHoldingSecrets(Map<String, String> props) {
    return props.entrySet().stream()
        .filter(
            e ->
                holdsSecret(e.getKey(), e.getValue())
                    || (e.getValue() != null && !urlPasswords(e.getValue()).isEmpty()))
        .map(Map.Entry::getKey)
        .sorted()
        .toList();
  }

  /**
   * Hides secrets in a {@code /config/validate} answer before Connect renders it: the value of
   * every secret-bearing key becomes a {@link Password} (shown as {@code [hidden]}), pass-through
   * keys included, and every secret value quoted in any key's error messages is masked. Connect
   * itself hides only {@code PASSWORD} keys and the values that came through a config provider, and
   * only on the key they belong to.
   */
  public static void hideIn(Collection<ConfigValue> values, Map<String, String> props) {
    Secrets secrets = of(props);
    for (ConfigValue value : values) {
      if (value.value() instanceof String text && isSecretKey(value.name())) {
        value.value(new Password(text));
      }
      value.errorMessages().replaceAll(secrets::mask); // Kafka's own, mutable list
    }
  }

  /** A copy of {@code props} with every secret-bearing value replaced by {@link #MASK}. */
  public static Map<String, String> redacted(Map<String, String> props) {
    Map<String, String> result = new TreeMap<>();
    props.forEach((key, value) -> result.put(key, isSecretKey(key) ? MASK : value));
    return result;
  }

  /** {@code text} with every secret value masked. */
  public String mask(String text) {
    if (text == null || values.isEmpty()) {
      return text;
    }
    String result = text;
    for (String value : values) {
      result = result.replace(value, MASK);
    }
    return result;
  }

  /** Whether any message in {@code error}'s cause chain contains a secret. */
  public boolean leaks(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
      String message = t.getMessage();
      if (message != null && !mask(message).equals(message)) {
        return true;
      }
    }
    return false;
  }

  /**
   * {@code error}'s cause chain as one line, each exception's class and message, secrets masked:
   * for a log line about an error whose messages may quote a setting (a JDBC URL, say).
   */
  public String describe(Throwable error) {
    StringBuilder chain = new StringBuilder();
    for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (chain.length() > 0) {
        chain.append("; caused by: ");
      }
      chain.append(t.getClass().getName());
      if (t.getMessage() != null) {
        chain.append(": ").append(mask(t.getMessage()));
      }
    }
    return chain.toString();
  }

  /**
   * {@code error} itself if no message in its cause chain holds a secret; otherwise a {@code
   * ConnectException} whose message describes the chain with secrets masked, and with the original
   * stack trace but no cause (the cause would carry the secret).
   */
  public RuntimeException guard(RuntimeException error) {
    if (!leaks(error)) {
      return error;
    }
    String chain = describe(error);
    ConnectException masked =
        error instanceof org.apache.kafka.connect.errors.RetriableException
            ? new org.apache.kafka.connect.errors.RetriableException(chain)
            : new ConnectException(chain);
    masked.setStackTrace(error.getStackTrace());
    return masked;
  }
}
