/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.junit.jupiter.api.Test;

class EventHeaderTest {
  private final EventCodec codec = new EventCodec();

  @Test
  void theHeaderIsReadWithoutDecodingThePayload() {
    byte[] bytes = codec.encode("orders", "orders-2", 42L, SampleEvents.dataWritten());
    int headerLength = bytes.length - payloadLength(bytes);
    byte[] brokenPayload = Arrays.copyOf(bytes, bytes.length);
    Arrays.fill(brokenPayload, headerLength, brokenPayload.length, (byte) 0xff);

    EventHeader header = EventCodec.peekHeader(brokenPayload);

    assertThat(header.type()).contains(EventType.DATA_WRITTEN);
    assertThat(header.connectorGroupId()).isEqualTo("orders");
    assertThat(header.senderTaskId()).isEqualTo("orders-2");
    assertThat(header.createdAtMs()).isEqualTo(42L);
    assertThat(EventCodec.peekHeader(Arrays.copyOf(bytes, headerLength))).isEqualTo(header);
    assertThatThrownBy(() -> codec.decode(brokenPayload)).isInstanceOf(CorruptEventException.class);
  }

  @Test
  void eventsOfAnotherConnectorOnTheSameTopicAreNotForUs() {
    byte[] ours = codec.encode("orders", "orders-0", 1L, new CommitRequest(1));
    byte[] theirs = codec.encode("orders-eu", "orders-eu-0", 1L, new CommitRequest(1));

    assertThat(EventCodec.peekHeader(ours).isFor("orders")).isTrue();
    assertThat(EventCodec.peekHeader(theirs).isFor("orders")).isFalse();
    assertThat(EventCodec.peekHeader(ours).isFor("Orders")).isFalse();
  }

  @Test
  void anUnknownEventTypeCanBePeekedButNotDecoded() {
    byte[] bytes = codec.encode("orders", "orders-0", 1L, new CommitRequest(1));
    bytes[3] = 99;

    EventHeader header = EventCodec.peekHeader(bytes);

    assertThat(header.typeCode()).isEqualTo(99);
    assertThat(header.type()).isEmpty();
    assertThat(header.isFor("orders")).isTrue();
    assertThatThrownBy(() -> codec.decode(bytes))
        .isInstanceOfSatisfying(
            UnsupportedEventException.class,
            e -> assertThat(e.reason()).isEqualTo(UnsupportedEventException.Reason.UNKNOWN_TYPE))
        .hasMessageContaining("event type 99 v1 from task orders-0 of connector orders");
  }

  @Test
  void aLaterHeaderVersionWithAppendedFieldsIsRead() throws IOException {
    byte[] bytes = header(2, "orders", "orders-0", 5L, 77L);

    EventHeader header = EventCodec.peekHeader(bytes);

    assertThat(header.connectorGroupId()).isEqualTo("orders");
    assertThat(header.createdAtMs()).isEqualTo(5L);
    assertThat(codec.decode(bytes).event()).isEqualTo(new CommitRequest(1));
  }

  @Test
  void extraHeaderBytesAtHeaderVersionOneAreCorrupt() throws IOException {
    assertThatThrownBy(() -> EventCodec.peekHeader(header(1, "orders", "orders-0", 5L, 77L)))
        .isInstanceOf(CorruptEventException.class)
        .hasMessageContaining("unexpected bytes at the end of the header");
  }

  @Test
  void aMessageOfAnotherProducerIsForeign() {
    byte[] otherSinksEvent = {(byte) 0xc2, 0x01, 0x7b, 0x22};

    for (byte[] bytes : new byte[][] {otherSinksEvent, {}, {(byte) 0xf1}}) {
      assertThatThrownBy(() -> EventCodec.peekHeader(bytes))
          .isInstanceOfSatisfying(
              UnsupportedEventException.class,
              e ->
                  assertThat(e.reason()).isEqualTo(UnsupportedEventException.Reason.FOREIGN_FORMAT))
          .hasMessageContaining("Not a Floe control event");
    }
  }

  @Test
  void invalidVersionBytesAreCorrupt() {
    byte[] valid = codec.encode("orders", "orders-0", 1L, new CommitRequest(1));
    byte[] headerVersionZero = valid.clone();
    headerVersionZero[2] = 0;
    byte[] schemaVersionZero = valid.clone();
    schemaVersionZero[4] = 0;
    byte[] minReaderAboveSchema = valid.clone();
    minReaderAboveSchema[5] = 2;

    assertThatThrownBy(() -> EventCodec.peekHeader(headerVersionZero))
        .isInstanceOf(CorruptEventException.class)
        .hasMessageContaining("header version 0");
    assertThatThrownBy(() -> EventCodec.peekHeader(schemaVersionZero))
        .isInstanceOf(CorruptEventException.class)
        .hasMessageContaining("schemaVersion must be from 1 to 255, was 0");
    assertThatThrownBy(() -> EventCodec.peekHeader(minReaderAboveSchema))
        .isInstanceOf(CorruptEventException.class)
        .hasMessageContaining("minReaderVersion 2 must not be above schemaVersion 1");
  }

  /** A CommitRequest(1) with the given header version and one extra long in the header body. */
  private static byte[] header(
      int headerVersion, String group, String task, long createdAtMs, long extra)
      throws IOException {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    BinaryEncoder bodyEncoder = EncoderFactory.get().directBinaryEncoder(body, null);
    bodyEncoder.writeString(group);
    bodyEncoder.writeString(task);
    bodyEncoder.writeLong(createdAtMs);
    bodyEncoder.writeLong(extra);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(new byte[] {(byte) 0xf1, 0x0e, (byte) headerVersion, 5, 1, 1});
    BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
    encoder.writeBytes(body.toByteArray());
    encoder.writeLong(1L);
    return out.toByteArray();
  }

  /** The payload's length, found by re-encoding the header alone. */
  private static int payloadLength(byte[] bytes) {
    EventHeader header = EventCodec.peekHeader(bytes);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    HeaderFormat.write(header, out);
    return bytes.length - out.size();
  }
}
