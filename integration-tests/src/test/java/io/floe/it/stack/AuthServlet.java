/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.stack;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.iceberg.rest.auth.OAuth2Util;
import org.apache.iceberg.rest.responses.ErrorResponse;
import org.apache.iceberg.rest.responses.ErrorResponseParser;

/**
 * Serves a {@link CatalogAuthority} in front of the catalog servlet: the token endpoint, a 401 for
 * every other request without a live bearer token, the storage credentials added to the answers to
 * table loads and creates that ask for them, and the tables' credentials endpoints (which Iceberg's
 * test servlet has no route for).
 */
final class AuthServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;
  private static final ObjectMapper JSON = new ObjectMapper();

  /** A table (a load: GET), or its namespace's tables (a create: POST). */
  private static final Pattern TABLES =
      Pattern.compile("/v1/namespaces/([^/]+)/tables(?:/([^/]+))?");

  private static final Pattern CREDENTIALS =
      Pattern.compile("/v1/namespaces/[^/]+/tables/[^/]+/credentials");

  private final transient CatalogAuthority authority;
  private final transient HttpServlet delegate;

  AuthServlet(CatalogAuthority authority, HttpServlet delegate) {
    this.authority = authority;
    this.delegate = delegate;
  }

  @Override
  public void init() throws ServletException {
    delegate.init(getServletConfig());
  }

  @Override
  protected void service(HttpServletRequest request, HttpServletResponse response)
      throws ServletException, IOException {
    String path = request.getRequestURI();
    if ("POST".equals(request.getMethod()) && CatalogAuthority.TOKEN_PATH.equals(path)) {
      token(request, response);
    } else if (!authority.authorized(request.getHeader("Authorization"))) {
      error(response, 401, "NotAuthorizedException", "Missing, unknown or expired bearer token");
    } else if ("GET".equals(request.getMethod()) && CREDENTIALS.matcher(path).matches()) {
      if (!CatalogAuthority.VENDED_CREDENTIALS.equals(
          request.getHeader(CatalogAuthority.DELEGATION_HEADER))) {
        error(response, 403, "ForbiddenException", "Credentials are vended only when asked for");
        return;
      }
      write(response, 200, "{\"storage-credentials\":[" + authority.vendOnRefresh() + "]}");
    } else if (asksForCredentials(request) && loadsOrCreatesTable(request)) {
      CapturedResponse loaded = new CapturedResponse(response);
      delegate.service(request, loaded);
      byte[] body = loaded.body();
      if (loaded.getStatus() == 200) {
        body = withCredentials(request, body);
      }
      response.setStatus(loaded.getStatus());
      response.setContentType("application/json");
      response.getOutputStream().write(body);
    } else {
      delegate.service(request, response);
    }
  }

  private static boolean asksForCredentials(HttpServletRequest request) {
    String asked = request.getHeader(CatalogAuthority.DELEGATION_HEADER);
    return asked != null && asked.contains(CatalogAuthority.VENDED_CREDENTIALS);
  }

  private static boolean loadsOrCreatesTable(HttpServletRequest request) {
    Matcher tables = TABLES.matcher(request.getRequestURI());
    return tables.matches()
        && ("GET".equals(request.getMethod()) == (tables.group(2) != null))
        && ("GET".equals(request.getMethod()) || "POST".equals(request.getMethod()));
  }

  /**
   * A {@code LoadTableResponse} with a storage credential for the table's bucket, and the table's
   * credentials endpoint in its {@code config}.
   */
  private byte[] withCredentials(HttpServletRequest request, byte[] body) throws IOException {
    Matcher tables = TABLES.matcher(request.getRequestURI());
    if (!tables.matches()) {
      throw new IllegalStateException(request.getRequestURI());
    }
    ObjectNode loaded = (ObjectNode) JSON.readTree(body);
    String table =
        tables.group(2) != null
            ? tables.group(2)
            : loaded.path("metadata-location").asText().replaceAll(".*/([^/]+)/metadata/.*", "$1");
    loaded
        .withObject("config")
        .put(
            "client.refresh-credentials-endpoint",
            authority.credentialsEndpoint(tables.group(1), table));
    loaded.withArray("storage-credentials").add(authority.vendWithTable());
    return JSON.writeValueAsBytes(loaded);
  }

  private void token(HttpServletRequest request, HttpServletResponse response) throws IOException {
    Map<String, String> form = new LinkedHashMap<>();
    request.getParameterMap().forEach((key, values) -> form.put(key, values[0]));
    try {
      write(
          response,
          200,
          OAuth2Util.tokenResponseToJson(
              authority.token(form, request.getHeader("Authorization"))));
    } catch (CatalogAuthority.Refusal refusal) {
      write(
          response,
          refusal.status,
          "{\"error\":\""
              + refusal.error
              + "\",\"error_description\":\""
              + refusal.getMessage()
              + "\"}");
    }
  }

  private static void error(HttpServletResponse response, int status, String type, String message)
      throws IOException {
    write(
        response,
        status,
        ErrorResponseParser.toJson(
            ErrorResponse.builder()
                .responseCode(status)
                .withType(type)
                .withMessage(message)
                .build()));
  }

  private static void write(HttpServletResponse response, int status, String json)
      throws IOException {
    response.setStatus(status);
    response.setContentType("application/json");
    response.getOutputStream().write(json.getBytes(StandardCharsets.UTF_8));
  }
}
