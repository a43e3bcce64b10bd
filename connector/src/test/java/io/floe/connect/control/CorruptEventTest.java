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
import java.util.HexFormat;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class CorruptEventTest {
  private static final HexFormat HEX = HexFormat.of();

  /**
   * Magic, header version 1, schema version 1, minimum reader 1, then a header of "c", "c-0", 1.
   */
  private static String header(int typeCode) {
    return "f10e01" + String.format("%02x", typeCode) + "0101" + "0e026306632d3002";
  }

  private static final String COMMIT_ID = "00112233445566778899aabbccddeeff";

  private final EventCodec codec = new EventCodec();

  static Stream<Arguments> events() {
    return SampleEvents.all().stream().map(event -> Arguments.of(event.toString(), event));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("events")
  void everyTruncationIsReportedAsCorrupt(String name, ControlEvent event) {
    byte[] bytes = codec.encode("c", "c-0", 1L, event);

    for (int length = 2; length < bytes.length; length++) {
      byte[] truncated = Arrays.copyOf(bytes, length);
      assertThatThrownBy(() -> codec.decode(truncated))
          .as("truncated to %d of %d bytes", length, bytes.length)
          .isInstanceOf(CorruptEventException.class);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("events")
  void bytesAfterThePayloadAreCorrupt(String name, ControlEvent event) {
    byte[] encoded = codec.encode("c", "c-0", 1L, event);
    byte[] withTrailingByte = Arrays.copyOf(encoded, encoded.length + 1);

    assertThatThrownBy(() -> codec.decode(withTrailingByte))
        .isInstanceOf(CorruptEventException.class)
        .hasMessageContaining("unexpected bytes after the payload");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("events")
  void randomDamageNeverEscapesAsAnotherException(String name, ControlEvent event) {
    byte[] bytes = codec.encode("c", "c-0", 1L, event);
    Random random = new Random(bytes.length);

    for (int i = 0; i < 2_000; i++) {
      byte[] damaged = bytes.clone();
      for (int flips = 1 + random.nextInt(3); flips > 0; flips--) {
        damaged[random.nextInt(damaged.length)] = (byte) random.nextInt(256);
      }
      try {
        codec.decode(damaged);
      } catch (ControlEventException expected) {
        // skipped or failed by the caller; any other exception would be a bug
      }
    }
  }

  @Test
  @Timeout(5)
  void aHugeHeaderLengthIsRejectedWithoutAllocating() {
    byte[] bytes = HEX.parseHex("f10e01050101" + "feffffff0f");

    assertThatThrownBy(() -> EventCodec.peekHeader(bytes))
        .isInstanceOf(CorruptEventException.class)
        .hasMessageContaining("header length 2147483647 with 0 bytes left");
  }

  @Test
  @Timeout(5)
  void aHugeStringLengthInTheHeaderIsRejected() {
    // a header body of 5 bytes whose group id claims 2^30 bytes
    byte[] bytes = HEX.parseHex("f10e01050101" + "0a" + "8080808008" + "00");

    assertThatThrownBy(() -> EventCodec.peekHeader(bytes))
        .isInstanceOf(CorruptEventException.class);
  }

  @ParameterizedTest
  @ValueSource(longs = {100_000_000L, 2_000_000_000L, 1L << 40})
  @Timeout(5)
  void aHugeStringLengthInThePayloadIsRejectedWithoutAllocating(long length) throws IOException {
    // DataWritten whose table name claims far more bytes than follow
    byte[] bytes = HEX.parseHex(header(2) + COMMIT_ID + varint(length) + "6162");

    assertThatThrownBy(() -> codec.decode(bytes))
        .isInstanceOf(CorruptEventException.class)
        .hasMessageStartingWith("Corrupt DATA_WRITTEN v1 from task c-0 of connector c");
  }

  @ParameterizedTest
  @ValueSource(longs = {100_000_000L, 2_000_000_000L, 1L << 40, -100_000_000L})
  @Timeout(5)
  void aHugeArrayCountIsRejectedWithoutAllocating(long count) throws IOException {
    // DataComplete whose assignments claim far more items than follow; a negative count is
    // followed by the block's size in bytes
    String block = varint(count) + (count < 0 ? varint(Integer.MAX_VALUE) : "");
    byte[] bytes = HEX.parseHex(header(3) + COMMIT_ID + block + "0274");

    assertThatThrownBy(() -> codec.decode(bytes))
        .isInstanceOf(CorruptEventException.class)
        .hasMessageStartingWith("Corrupt DATA_COMPLETE v1 from task c-0 of connector c");
  }

  @Test
  void anUnknownUnionBranchIsCorrupt() {
    // CommitComplete with union branch 5 for validThroughMs
    byte[] bytes = HEX.parseHex(header(4) + COMMIT_ID + "0a02");

    assertThatThrownBy(() -> codec.decode(bytes)).isInstanceOf(CorruptEventException.class);
  }

  @Test
  void invalidValuesOnTheWireAreCorruptWithTheReason() {
    // CommitRequest with bufferedBytes -1 (zig-zag 01)
    byte[] negative = HEX.parseHex(header(5) + "01");
    byte[] dataWritten = codec.encode("c", "c-0", 1L, SampleEvents.unpartitionedDeletes());
    byte[] unknownContent = dataWritten.clone();
    // the content id follows commitId, table, tableUuid, location, length and spec id
    int contentOffset = indexOf(dataWritten, "file:/tmp/m.avro".getBytes()) + 16 + 2;
    assertThat(unknownContent[contentOffset]).isEqualTo((byte) 2);
    unknownContent[contentOffset] = 14;

    assertThatThrownBy(() -> codec.decode(negative))
        .isInstanceOf(CorruptEventException.class)
        .hasMessageContaining("Corrupt COMMIT_REQUEST v1 from task c-0 of connector c")
        .hasMessageContaining("bufferedBytes must not be negative, was -1");
    assertThatThrownBy(() -> codec.decode(unknownContent))
        .isInstanceOf(CorruptEventException.class)
        .hasMessageContaining("content must be 0 (data) or 1 (deletes), was 7");
  }

  @Test
  void aTruncatedHeaderIsCorrupt() {
    for (String hex : new String[] {"f10e", "f10e0105", "f10e01050101", "f10e0105010180"}) {
      assertThatThrownBy(() -> EventCodec.peekHeader(HEX.parseHex(hex)))
          .as(hex)
          .isInstanceOf(CorruptEventException.class);
    }
  }

  private static String varint(long value) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
    encoder.writeLong(value);
    return HEX.formatHex(out.toByteArray());
  }

  private static int indexOf(byte[] bytes, byte[] part) {
    for (int i = 0; i + part.length <= bytes.length; i++) {
      if (Arrays.equals(bytes, i, i + part.length, part, 0, part.length)) {
        return i;
      }
    }
    throw new AssertionError("not found");
  }
}
