/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.config;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.errors.ConnectException;

/**
 * The secret values of a connector's configuration, and the means to keep them out of what Floe
 * logs or throws. Secret-bearing keys are the {@code PASSWORD} keys of Floe's {@code ConfigDef} and
 * every key, pass-through ones included, whose name says it holds a secret (password, secret,
 * token, credential, access key, JAAS configuration, user info).
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
          "apikey");

  private final List<String> values;

  private Secrets(List<String> values) {
    this.values = values;
  }

  /** The secrets of a connector configuration (raw properties as the task receives them). */
  public static Secrets of(Map<String, String> props) {
    List<String> values = new ArrayList<>();
    props.forEach(
        (key, value) -> {
          if (value != null
              && value.length() >= MIN_LENGTH
              && isSecretKey(key)
              && !value.equalsIgnoreCase("true")
              && !value.equalsIgnoreCase("false")
              && !value.chars().allMatch(Character::isDigit)) {
            values.add(value);
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
    for (String part : SECRET_NAME_PARTS) {
      if (lower.contains(part)) {
        return true;
      }
    }
    return false;
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
   * {@code error} itself if no message in its cause chain holds a secret; otherwise a {@code
   * ConnectException} whose message describes the chain with secrets masked, and with the original
   * stack trace but no cause (the cause would carry the secret).
   */
  public RuntimeException guard(RuntimeException error) {
    if (!leaks(error)) {
      return error;
    }
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
    ConnectException masked =
        error instanceof org.apache.kafka.connect.errors.RetriableException
            ? new org.apache.kafka.connect.errors.RetriableException(chain.toString())
            : new ConnectException(chain.toString());
    masked.setStackTrace(error.getStackTrace());
    return masked;
  }
}
