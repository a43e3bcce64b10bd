/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.stack;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A child process's log, read while it grows: tests wait for what a process logs (a cycle started,
 * a task answered, a worker fenced) instead of sleeping. A {@link #mark()} is a position in the
 * file; searches start at a mark, so they only see what was logged after it.
 */
public final class LogFile {
  private static final Duration POLL = Duration.ofMillis(100);

  private final Path path;

  public LogFile(Path path) {
    this.path = path;
  }

  public Path path() {
    return path;
  }

  /** The log's current length: searches from here see only what is logged from now on. */
  public long mark() {
    try {
      return Files.exists(path) ? Files.size(path) : 0;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read the size of " + path, e);
    }
  }

  /** The matches of {@code pattern} in the lines logged since {@code from}, in order. */
  public List<Matcher> matches(Pattern pattern, long from) {
    List<Matcher> matches = new ArrayList<>();
    for (String line : linesSince(from)) {
      Matcher matcher = pattern.matcher(line);
      if (matcher.find()) {
        matches.add(matcher);
      }
    }
    return matches;
  }

  /** The complete lines logged since {@code from}, each ending with a line break. */
  public String textSince(long from) {
    StringBuilder text = new StringBuilder();
    for (String line : linesSince(from)) {
      text.append(line).append('\n');
    }
    return text.toString();
  }

  /**
   * Waits until a line logged since {@code from} matches {@code pattern}, and returns the first
   * match; fails with the log's location after {@code timeout}. Each look reads only what was
   * logged since the last one.
   */
  public Matcher await(Pattern pattern, long from, Duration timeout) {
    return await(pattern, from, timeout, POLL);
  }

  /** As {@link #await(Pattern, long, Duration)}, looking every {@code poll}. */
  public Matcher await(Pattern pattern, long from, Duration timeout, Duration poll) {
    Instant deadline = Instant.now().plus(timeout);
    long position = from;
    while (true) {
      Chunk chunk = read(position);
      for (String line : chunk.lines()) {
        Matcher matcher = pattern.matcher(line);
        if (matcher.find()) {
          return matcher;
        }
      }
      position = chunk.end();
      if (Instant.now().isAfter(deadline)) {
        throw new AssertionError(
            "No line matching '" + pattern + "' in " + path + " within " + timeout);
      }
      Ports.sleep(poll);
    }
  }

  /** Complete lines read from a position, and the position after the last of them. */
  private record Chunk(List<String> lines, long end) {}

  private List<String> linesSince(long from) {
    return read(from).lines();
  }

  private Chunk read(long from) {
    if (!Files.exists(path)) {
      return new Chunk(List.of(), from);
    }
    try (InputStream in = Files.newInputStream(path)) {
      in.skipNBytes(Math.min(from, Files.size(path)));
      byte[] bytes = in.readAllBytes();
      int end = bytes.length - 1;
      while (end >= 0 && bytes[end] != '\n') {
        end--;
      }
      // a line still being written is left for the next read
      if (end < 0) {
        return new Chunk(List.of(), from);
      }
      String text = new String(bytes, 0, end, StandardCharsets.UTF_8);
      return new Chunk(List.of(text.split("\n")), from + end + 1);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read " + path, e);
    }
  }
}
