/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.avro;

import java.io.ByteArrayOutputStream;
import org.apache.kafka.connect.errors.DataException;

/**
 * The Confluent wire format: magic byte {@code 0}, the writer schema's registry id as a 4-byte
 * big-endian integer, then the Avro binary encoding of the value.
 */
final class WireFormat {
  static final byte MAGIC = 0;
  static final int HEADER_LENGTH = 5;

  private WireFormat() {}

  /**
   * The schema id in a payload's header.
   *
   * @throws DataException when the payload is not in the wire format; the message names the topic
   *     and the reason, never the payload
   */
  static int schemaId(String topic, byte[] payload) {
    if (payload.length < HEADER_LENGTH) {
      throw new DataException(
          "Record of topic "
              + topic
              + " is not Avro in the Confluent wire format: it has "
              + payload.length
              + " bytes, fewer than the 5-byte header (magic byte 0, 4-byte schema id)");
    }
    if (payload[0] != MAGIC) {
      throw new DataException(
          String.format(
              "Record of topic %s is not Avro in the Confluent wire format: its first byte is"
                  + " 0x%02x, not the magic byte 0x00",
              topic, payload[0] & 0xff));
    }
    return ((payload[1] & 0xff) << 24)
        | ((payload[2] & 0xff) << 16)
        | ((payload[3] & 0xff) << 8)
        | (payload[4] & 0xff);
  }

  /** Writes the magic byte and the schema id. */
  static void writeHeader(ByteArrayOutputStream out, int schemaId) {
    out.write(MAGIC);
    out.write(schemaId >>> 24);
    out.write(schemaId >>> 16);
    out.write(schemaId >>> 8);
    out.write(schemaId);
  }
}
