/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Configurator;
import org.apache.logging.log4j.core.config.Property;

/**
 * The log lines one class writes while the capture is open, as "LEVEL message", and everything they
 * carry: the message and the stack trace of an exception passed with it.
 */
public final class LogCapture extends AbstractAppender implements AutoCloseable {
  private final String loggerName;
  private final List<String> lines = new CopyOnWriteArrayList<>();
  private final List<String> everything = new CopyOnWriteArrayList<>();
  private Level restoreLevel;

  private LogCapture(Class<?> source) {
    super(
        "capture-" + source.getName() + "-" + System.nanoTime(),
        null,
        null,
        true,
        Property.EMPTY_ARRAY);
    this.loggerName = source.getName();
  }

  /** Starts capturing what {@code source}'s logger writes at INFO and above. */
  public static LogCapture of(Class<?> source) {
    LogCapture capture = new LogCapture(source);
    capture.start();
    LoggerContext context = (LoggerContext) LogManager.getContext(false);
    context.getConfiguration().getRootLogger().addAppender(capture, Level.ALL, null);
    context.updateLoggers();
    return capture;
  }

  /** Starts capturing everything {@code source}'s logger writes, DEBUG and TRACE included. */
  public static LogCapture ofEveryLevel(Class<?> source) {
    LogCapture capture = of(source);
    capture.restoreLevel = LogManager.getLogger(source).getLevel();
    Configurator.setLevel(source.getName(), Level.ALL);
    return capture;
  }

  @Override
  public void append(LogEvent event) {
    if (event.getLoggerName().equals(loggerName)) {
      String line = event.getLevel() + " " + event.getMessage().getFormattedMessage();
      lines.add(line);
      everything.add(line);
      if (event.getThrown() != null) {
        StringWriter trace = new StringWriter();
        event.getThrown().printStackTrace(new PrintWriter(trace));
        everything.add(trace.toString());
      }
    }
  }

  /** Every captured line, with the stack trace of any exception logged with it. */
  public String text() {
    return String.join("\n", everything);
  }

  /** The lines captured so far. */
  public List<String> lines() {
    return List.copyOf(lines);
  }

  /** The captured lines at {@code level}. */
  public List<String> at(String level) {
    return lines.stream().filter(l -> l.startsWith(level + " ")).toList();
  }

  @Override
  public void close() {
    LoggerContext context = (LoggerContext) LogManager.getContext(false);
    context.getConfiguration().getRootLogger().removeAppender(getName());
    context.updateLoggers();
    if (restoreLevel != null) {
      Configurator.setLevel(loggerName, restoreLevel);
    }
    stop();
  }
}
