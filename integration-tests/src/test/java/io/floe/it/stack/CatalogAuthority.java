/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.stack;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.rest.responses.OAuthTokenResponse;

/**
 * The security of a REST catalog of the managed kind: an OAuth2 token endpoint for the
 * client-credentials grant (and the token exchange Iceberg's client refreshes with), bearer tokens
 * that expire, and storage credentials vended per table when the client asks with {@code
 * X-Iceberg-Access-Delegation: vended-credentials}: keys {@linkplain S3ProxyServer#grant granted}
 * on the warehouse's bucket for a short while.
 *
 * <p>The store refuses vended keys {@link #KEY_GRACE} after the expiry their credential gives
 * ({@code s3.session-token-expires-at-ms}), for the clock skew a token service allows; tokens are
 * accepted {@link #TOKEN_GRACE} past theirs. Iceberg's S3 client fetches new keys at the table's
 * credentials endpoint from 5 minutes before that expiry, so with the short lifetimes of a test it
 * fetches them again for most requests.
 */
public final class CatalogAuthority {
  public static final String TOKEN_PATH = "/v1/oauth/tokens";
  public static final String DELEGATION_HEADER = "X-Iceberg-Access-Delegation";
  public static final String VENDED_CREDENTIALS = "vended-credentials";

  /** How long past their expiry the store still lets keys in. */
  static final Duration KEY_GRACE = Duration.ofSeconds(2);

  /** How long past its expiry a token is still accepted. */
  static final Duration TOKEN_GRACE = Duration.ofSeconds(3);

  private static final org.slf4j.Logger LOG =
      org.slf4j.LoggerFactory.getLogger(CatalogAuthority.class);
  private static final String CLIENT_CREDENTIALS = "client_credentials";
  private static final String TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * Who may log in, and for how long tokens and keys last; every token and key starts with {@code
   * secretPrefix}.
   */
  public record Settings(
      String clientId,
      String clientSecret,
      String scope,
      Duration tokenLifetime,
      Duration keyLifetime,
      String secretPrefix) {
    @Override
    public String toString() {
      return "Settings[client " + clientId + ", scope " + scope + "]";
    }
  }

  /** A refused token request: the OAuth2 error code and the HTTP status to answer with. */
  static final class Refusal extends Exception {
    private static final long serialVersionUID = 1L;
    final int status;
    final String error;

    Refusal(int status, String error, String description) {
      super(description);
      this.status = status;
      this.error = error;
    }
  }

  private final Settings settings;
  private final S3ProxyServer s3;
  private final String bucket;
  private final Map<String, Instant> tokens = new ConcurrentHashMap<>();
  private final AtomicInteger clientCredentialGrants = new AtomicInteger();
  private final AtomicInteger tokenExchanges = new AtomicInteger();
  private final AtomicInteger keysVendedWithTables = new AtomicInteger();
  private final AtomicInteger keysVendedOnRefresh = new AtomicInteger();
  private final AtomicInteger refusedRequests = new AtomicInteger();
  private volatile URI uri;

  CatalogAuthority(Settings settings, S3ProxyServer s3, String bucket) {
    this.settings = settings;
    this.s3 = s3;
    this.bucket = bucket;
  }

  void serving(URI catalogUri) {
    this.uri = catalogUri;
  }

  /** A token for a form posted to {@link #TOKEN_PATH}, with the request's Authorization header. */
  OAuthTokenResponse token(Map<String, String> form, String authorization) throws Refusal {
    try {
      OAuthTokenResponse response = grant(form, authorization);
      LOG.info("Issued token #{} for {}", tag(response.token()), form.get("grant_type"));
      return response;
    } catch (Refusal refusal) {
      LOG.info("Refused a token for {}: {}", form.get("grant_type"), refusal.getMessage());
      throw refusal;
    }
  }

  private OAuthTokenResponse grant(Map<String, String> form, String authorization) throws Refusal {
    String grant = form.get("grant_type");
    if (CLIENT_CREDENTIALS.equals(grant)) {
      if (!settings.clientId().equals(form.get("client_id"))
          || !settings.clientSecret().equals(form.get("client_secret"))) {
        throw new Refusal(401, "invalid_client", "Unknown client or wrong client secret");
      }
      checkScope(form);
      clientCredentialGrants.incrementAndGet();
      return issue();
    }
    if (TOKEN_EXCHANGE.equals(grant)) {
      if (!live(form.get("subject_token")) && !clientLogin(authorization)) {
        throw new Refusal(400, "invalid_grant", "The subject token is unknown or expired");
      }
      checkScope(form);
      tokenExchanges.incrementAndGet();
      return issue();
    }
    throw new Refusal(400, "unsupported_grant_type", "Grant type not supported: " + grant);
  }

  private void checkScope(Map<String, String> form) throws Refusal {
    String scope = form.get("scope");
    if (scope == null || !java.util.List.of(scope.split(" ")).contains(settings.scope())) {
      throw new Refusal(400, "invalid_scope", "The client may only ask for " + settings.scope());
    }
  }

  private boolean clientLogin(String authorization) {
    String expected =
        "Basic "
            + Base64.getEncoder()
                .encodeToString(
                    (settings.clientId() + ":" + settings.clientSecret())
                        .getBytes(StandardCharsets.UTF_8));
    return expected.equals(authorization);
  }

  private OAuthTokenResponse issue() {
    String token = settings.secretPrefix() + "-token-" + randomHex();
    tokens.put(token, Instant.now().plus(settings.tokenLifetime()));
    return OAuthTokenResponse.builder()
        .withToken(token)
        .withTokenType("bearer")
        .withIssuedTokenType("urn:ietf:params:oauth:token-type:access_token")
        .setExpirationInSeconds((int) settings.tokenLifetime().toSeconds())
        .addScope(settings.scope())
        .build();
  }

  private boolean live(String token) {
    Instant expiresAt = token == null ? null : tokens.get(token);
    return expiresAt != null && !Instant.now().isAfter(expiresAt.plus(TOKEN_GRACE));
  }

  /** Whether a request with this Authorization header may use the catalog; counts refusals. */
  boolean authorized(String authorization) {
    boolean ok =
        authorization != null
            && authorization.regionMatches(true, 0, "Bearer ", 0, 7)
            && live(authorization.substring(7).trim());
    if (!ok) {
      refusedRequests.incrementAndGet();
      LOG.info(
          "Refused a request: {}",
          authorization == null
              ? "no Authorization header"
              : "unknown or expired token #" + tag(authorization.substring(7).trim()));
    }
    return ok;
  }

  /**
   * Keys for the warehouse's bucket, handed out with a table: a storage credential as the REST
   * spec's JSON has it.
   */
  JsonNode vendWithTable() {
    keysVendedWithTables.incrementAndGet();
    return vend();
  }

  /** Keys for the warehouse's bucket, asked for at the table's credentials endpoint. */
  JsonNode vendOnRefresh() {
    keysVendedOnRefresh.incrementAndGet();
    return vend();
  }

  private JsonNode vend() {
    S3ProxyServer.GrantedKeys keys =
        s3.grant(bucket, settings.keyLifetime().plus(KEY_GRACE), settings.secretPrefix());
    long expiry = keys.validUntil().minus(KEY_GRACE).toEpochMilli();
    Map<String, Object> credential =
        Map.of(
            "prefix",
            "s3://" + bucket + "/",
            "config",
            Map.of(
                "s3.access-key-id", keys.accessKeyId(),
                "s3.secret-access-key", keys.secretAccessKey(),
                "s3.session-token", keys.sessionToken(),
                "s3.session-token-expires-at-ms", Long.toString(expiry)));
    return JSON.valueToTree(credential);
  }

  /** The credentials endpoint of a table, which Iceberg's S3 client calls for new keys. */
  String credentialsEndpoint(String namespace, String table) {
    return uri + "/v1/namespaces/" + namespace + "/tables/" + table + "/credentials";
  }

  /**
   * A client's catalog properties for this authority: its client credential, the token endpoint,
   * the scope, and the header that asks for vended credentials.
   */
  public Map<String, String> clientProperties() {
    Map<String, String> props = new LinkedHashMap<>();
    props.put("rest.auth.type", "oauth2");
    props.put("credential", settings.clientId() + ":" + settings.clientSecret());
    props.put("oauth2-server-uri", uri + TOKEN_PATH);
    props.put("scope", settings.scope());
    props.put("header." + DELEGATION_HEADER, VENDED_CREDENTIALS);
    return props;
  }

  public Settings settings() {
    return settings;
  }

  /** Tokens issued for the client-credentials grant. */
  public int clientCredentialGrants() {
    return clientCredentialGrants.get();
  }

  /** Tokens issued by exchanging a token: the refreshes of Iceberg's client. */
  public int tokenExchanges() {
    return tokenExchanges.get();
  }

  /** Keys vended in the answer to a table load or create. */
  public int keysVendedWithTables() {
    return keysVendedWithTables.get();
  }

  /** Keys vended at a table's credentials endpoint: the refreshes of Iceberg's S3 client. */
  public int keysVendedOnRefresh() {
    return keysVendedOnRefresh.get();
  }

  /** Requests refused for a missing, unknown or expired token. */
  public int refusedRequests() {
    return refusedRequests.get();
  }

  /** A short name for a token in logs, which never show the token itself. */
  private static String tag(String token) {
    return Integer.toHexString(token.hashCode());
  }

  private static String randomHex() {
    byte[] bytes = new byte[12];
    RANDOM.nextBytes(bytes);
    return HexFormat.of().formatHex(bytes);
  }
}
