/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.contract;

/** Contracts for tests, written from one line per field. */
public final class TestContracts {
  private TestContracts() {}

  /**
   * The YAML of contract {@code orders} version 1.0.0, one object of the given fields, each {@code
   * "<name> <logicalType>"} with {@code " required"} after it for a required field.
   */
  public static String orders(String... fields) {
    StringBuilder text =
        new StringBuilder(
            """
            apiVersion: v3.0.2
            kind: DataContract
            id: orders
            version: 1.0.0
            schema:
              - name: orders
                logicalType: object
                properties:
            """);
    for (String field : fields) {
      String[] parts = field.trim().split(" +");
      text.append("      - name: ").append(parts[0]).append('\n');
      text.append("        logicalType: ").append(parts[1]).append('\n');
      if (parts.length > 2 && parts[2].equals("required")) {
        text.append("        required: true\n");
      }
    }
    return text.toString();
  }
}
