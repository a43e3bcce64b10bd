/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.stack;

import jakarta.servlet.ServletConfig;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Serves through another servlet, with faults a test injects by path:
 *
 * <ul>
 *   <li>{@link #failPathsEndingWith}: requests get a 400 with an Iceberg REST error body (not a
 *       5xx, which the Iceberg client retries by itself for seconds on reads): one table of a
 *       catalog "down" while the others answer.
 *   <li>{@link #fail}: the next matching requests get a 500, either before the catalog applies them
 *       or after (the change landed, but the client cannot know: an ambiguous commit).
 *   <li>{@link #hold}: the next matching request waits, before or after being applied, until the
 *       test releases it, then gets a 500; the test acts meanwhile (kills the client, say).
 * </ul>
 */
final class FaultyServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;
  private static final org.slf4j.Logger LOG =
      org.slf4j.LoggerFactory.getLogger(FaultyServlet.class);

  /** Whether a faulty request reaches the catalog first. */
  enum When {
    BEFORE_APPLYING,
    AFTER_APPLYING
  }

  /** A request held by {@link #hold}. */
  static final class Hold {
    private final CountDownLatch held = new CountDownLatch(1);
    private final CountDownLatch released = new CountDownLatch(1);

    /** Waits until a matching request is held; false after {@code timeout}. */
    boolean awaitHeld(Duration timeout) throws InterruptedException {
      return held.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Lets the held request (or the next one) go on: it gets a 500. */
    void release() {
      released.countDown();
    }
  }

  private final transient HttpServlet delegate;
  private transient volatile String failingSuffix;
  private final transient CopyOnWriteArrayList<Rule> rules = new CopyOnWriteArrayList<>();
  private final transient java.util.concurrent.atomic.AtomicInteger failed =
      new java.util.concurrent.atomic.AtomicInteger();

  /** A fault for the next {@code remaining} requests of a method whose path ends with a suffix. */
  private static final class Rule {
    final String method;
    final String suffix;
    final When when;
    final Hold hold;
    int remaining;

    Rule(String method, String suffix, When when, int times, Hold hold) {
      this.method = method;
      this.suffix = suffix;
      this.when = when;
      this.remaining = times;
      this.hold = hold;
    }

    boolean matches(HttpServletRequest request) {
      return method.equals(request.getMethod()) && request.getRequestURI().endsWith(suffix);
    }
  }

  FaultyServlet(HttpServlet delegate) {
    this.delegate = delegate;
  }

  /** Fails requests ending with {@code suffix}; null fails none. */
  void failPathsEndingWith(String suffix) {
    failingSuffix = suffix;
  }

  /**
   * Answers 500 to the next {@code times} requests of {@code method} ending with {@code suffix}.
   */
  void fail(String method, String suffix, When when, int times) {
    rules.add(new Rule(method, suffix, when, times, null));
  }

  /** Holds the next request of {@code method} ending with {@code suffix} until released. */
  Hold hold(String method, String suffix, When when) {
    Hold hold = new Hold();
    rules.add(new Rule(method, suffix, when, 1, hold));
    return hold;
  }

  /** How many requests got an injected 500 so far. */
  int failedCount() {
    return failed.get();
  }

  /** Ends every fault; held requests are released. */
  void clear() {
    failingSuffix = null;
    for (Rule rule : rules) {
      if (rule.hold != null) {
        rule.hold.release();
      }
    }
    rules.clear();
  }

  @Override
  public void init(ServletConfig config) throws ServletException {
    super.init(config);
    delegate.init(config);
  }

  @Override
  protected void service(HttpServletRequest request, HttpServletResponse response)
      throws ServletException, IOException {
    String suffix = failingSuffix;
    if (suffix != null && request.getRequestURI().endsWith(suffix)) {
      LOG.info("Failing {} {} (injected fault)", request.getMethod(), request.getRequestURI());
      answerError(response, 400, "BadRequestException", "injected fault for " + suffix);
      return;
    }
    Rule rule = take(request);
    if (rule == null) {
      delegate.service(request, response);
      return;
    }
    if (rule.when == When.AFTER_APPLYING) {
      CapturedResponse discarded = new CapturedResponse(response);
      delegate.service(request, discarded);
      LOG.info(
          "Applied {} {} (answer {}); the client gets a 500 (injected fault)",
          request.getMethod(),
          request.getRequestURI(),
          discarded.getStatus());
    }
    if (rule.hold != null) {
      LOG.info("Holding {} {} (injected fault)", request.getMethod(), request.getRequestURI());
      rule.hold.held.countDown();
      try {
        rule.hold.released.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    LOG.info(
        "Failing {} {} with a 500 {} applying it (injected fault)",
        request.getMethod(),
        request.getRequestURI(),
        rule.when == When.AFTER_APPLYING ? "after" : "without");
    answerError(response, 500, "ServiceFailureException", "injected server failure");
    failed.incrementAndGet();
  }

  private synchronized Rule take(HttpServletRequest request) {
    for (Rule rule : rules) {
      if (rule.matches(request)) {
        if (--rule.remaining <= 0) {
          rules.remove(rule);
        }
        return rule;
      }
    }
    return null;
  }

  private static void answerError(
      HttpServletResponse response, int status, String type, String message) throws IOException {
    response.setStatus(status);
    response.setContentType("application/json");
    response
        .getOutputStream()
        .write(
            ("{\"error\":{\"message\":\""
                    + message
                    + "\",\"type\":\""
                    + type
                    + "\",\"code\":"
                    + status
                    + "}}")
                .getBytes(StandardCharsets.UTF_8));
  }

  @Override
  public void destroy() {
    delegate.destroy();
    super.destroy();
  }
}
