/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.avro;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import org.apache.kafka.connect.errors.DataException;
import org.junit.jupiter.api.Test;

class WireFormatTest {

  @Test
  void readsTheSchemaIdBigEndianAfterTheMagicByte() {
    assertThat(WireFormat.schemaId("t", new byte[] {0, 0x01, 0x02, 0x03, 0x04, 0x02}))
        .isEqualTo(0x01020304);
    assertThat(WireFormat.schemaId("t", new byte[] {0, 0, 0, 0, 7})).isEqualTo(7);
    assertThat(WireFormat.schemaId("t", new byte[] {0, (byte) 0x80, 0, 0, 0}))
        .isEqualTo(Integer.MIN_VALUE);
  }

  @Test
  void writesTheMagicByteAndTheIdBigEndian() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    WireFormat.writeHeader(out, 0x01020304);
    assertThat(out.toByteArray()).containsExactly(0, 1, 2, 3, 4);
  }

  @Test
  void refusesPayloadsShorterThanTheHeaderOrWithAnotherMagicByte() {
    assertThatThrownBy(() -> WireFormat.schemaId("orders", new byte[0]))
        .isInstanceOf(DataException.class)
        .hasMessage(
            "Record of topic orders is not Avro in the Confluent wire format: it has 0 bytes,"
                + " fewer than the 5-byte header (magic byte 0, 4-byte schema id)");
    assertThatThrownBy(() -> WireFormat.schemaId("orders", new byte[] {1, 0, 0, 0, 1}))
        .isInstanceOf(DataException.class)
        .hasMessage(
            "Record of topic orders is not Avro in the Confluent wire format: its first byte is"
                + " 0x01, not the magic byte 0x00");
  }
}
