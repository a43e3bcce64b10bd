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

/**
 * Serves through another servlet, except that requests whose path ends with a chosen suffix get a
 * 400 with an Iceberg REST error body (not a 5xx, which the Iceberg client retries by itself for
 * seconds): one table of a catalog "down" while the others answer.
 */
final class FaultyServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;
  private static final org.slf4j.Logger LOG =
      org.slf4j.LoggerFactory.getLogger(FaultyServlet.class);

  private final transient HttpServlet delegate;
  private transient volatile String failingSuffix;

  FaultyServlet(HttpServlet delegate) {
    this.delegate = delegate;
  }

  /** Fails requests ending with {@code suffix}; null fails none. */
  void failPathsEndingWith(String suffix) {
    failingSuffix = suffix;
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
      response.setStatus(HttpServletResponse.SC_BAD_REQUEST);
      response.setContentType("application/json");
      response
          .getOutputStream()
          .write(
              ("{\"error\":{\"message\":\"injected fault for "
                      + suffix
                      + "\","
                      + "\"type\":\"BadRequestException\",\"code\":400}}")
                  .getBytes(StandardCharsets.UTF_8));
      return;
    }
    delegate.service(request, response);
  }

  @Override
  public void destroy() {
    delegate.destroy();
    super.destroy();
  }
}
