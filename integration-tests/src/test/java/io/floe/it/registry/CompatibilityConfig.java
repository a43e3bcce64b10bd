/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.registry;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** The global compatibility level and the subjects that override it. Thread-safe. */
final class CompatibilityConfig {
  private final Map<String, CompatibilityLevel> bySubject = new ConcurrentHashMap<>();
  private volatile CompatibilityLevel global = CompatibilityLevel.DEFAULT;

  CompatibilityLevel global() {
    return global;
  }

  void setGlobal(CompatibilityLevel level) {
    global = level;
  }

  /** The subject's own level, if one was set. */
  Optional<CompatibilityLevel> subject(String subject) {
    return Optional.ofNullable(bySubject.get(subject));
  }

  void setSubject(String subject, CompatibilityLevel level) {
    bySubject.put(subject, level);
  }

  /** Removes the subject's own level and returns it, if there was one. */
  Optional<CompatibilityLevel> removeSubject(String subject) {
    return Optional.ofNullable(bySubject.remove(subject));
  }

  /** The level that applies to a subject: its own, else the global one. */
  CompatibilityLevel effective(String subject) {
    return subject(subject).orElse(global);
  }
}
