/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.connect.LogCapture;
import io.floe.connect.config.Secrets;
import java.io.IOException;
import java.util.Map;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import org.junit.jupiter.api.Test;

class CatalogCloseTest {
  private static final String PASSWORD = "s3cr3t-catalog-password";

  /** A catalog whose close fails quoting its JDBC URL, password and all. */
  private static final class FailingToClose extends InMemoryCatalog {
    @Override
    public void close() throws IOException {
      super.close();
      throw new IOException(
          "could not close jdbc:postgresql://db:5432/cat?password=" + PASSWORD,
          new IllegalStateException("pool of user floe with password " + PASSWORD));
    }
  }

  @Test
  void aCatalogThatFailsToCloseIsLoggedWithItsSecretsMasked() {
    FailingToClose catalog = new FailingToClose();
    catalog.initialize("cat", Map.of());
    Secrets secrets = Secrets.of(Map.of("iceberg.catalog.jdbc.password", PASSWORD));

    try (LogCapture logs = LogCapture.of(CatalogLoader.class)) {
      CatalogLoader.close(catalog, secrets);

      assertThat(logs.at("WARN"))
          .singleElement()
          .satisfies(
              line ->
                  assertThat(line)
                      .contains("Closing catalog 'cat' failed")
                      .contains("password=" + Secrets.MASK)
                      .contains("IllegalStateException: pool of user floe")
                      .doesNotContain(PASSWORD));
      assertThat(String.join("\n", logs.lines())).doesNotContain(PASSWORD);
    }
  }
}
