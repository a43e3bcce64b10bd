/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.bench;

import io.floe.connect.deletes.ResolutionStats;
import io.floe.connect.deletes.StagedUpsert;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.config.Property;

/**
 * What the last upsert commit's key location cost ({@link ResolutionStats}: files planned and read,
 * rows read, time), taken from the {@link StagedUpsert} log line that reports it; the rest of Floe
 * is quietened to warnings so that the benchmark's own output stays readable.
 */
final class ResolutionCapture extends AbstractAppender {
  private volatile ResolutionStats last;

  private ResolutionCapture() {
    super("upsert-resolution", null, null, true, Property.EMPTY_ARRAY);
  }

  static ResolutionCapture install() {
    ResolutionCapture capture = new ResolutionCapture();
    capture.start();
    LoggerContext context = (LoggerContext) LogManager.getContext(false);
    Configuration config = context.getConfiguration();
    config.getLoggerConfig("io.floe").setLevel(Level.WARN);
    LoggerConfig commits = new LoggerConfig(StagedUpsert.class.getName(), Level.INFO, false);
    commits.addAppender(capture, Level.INFO, null);
    config.addLogger(StagedUpsert.class.getName(), commits);
    context.updateLoggers();
    return capture;
  }

  @Override
  public void append(LogEvent event) {
    Object[] parameters = event.getMessage().getParameters();
    if (parameters == null) {
      return;
    }
    for (Object parameter : parameters) {
      if (parameter instanceof ResolutionStats stats) {
        last = stats;
      }
    }
  }

  /** The stats of the last upsert commit since the previous call, null if none. */
  ResolutionStats take() {
    ResolutionStats stats = last;
    last = null;
    return stats;
  }
}
