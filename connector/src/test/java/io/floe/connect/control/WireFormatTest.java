/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HexFormat;
import java.util.UUID;
import org.apache.iceberg.ManifestContent;
import org.junit.jupiter.api.Test;

/**
 * Pins the bytes of the wire format as {@link EventCodec} documents them, so that a change to the
 * format cannot slip in unnoticed and another implementation has examples to test against.
 */
class WireFormatTest {
  private static final UUID COMMIT_ID = UUID.fromString("00112233-4455-6677-8899-aabbccddeeff");
  private static final HexFormat HEX = HexFormat.of();

  // magic f10e, header version 01, type, schema version 01, minimum reader version 01; header body
  // of 7 bytes (0e): "c" (02 63), "c-0" (06 63 2d 30), createdAtMs 1 (02)
  private static final String HEADER_REST = "01010e026306632d3002";

  private final EventCodec codec = new EventCodec();

  @Test
  void startCommitIsTheHeaderAndTheRawCommitId() {
    byte[] bytes = codec.encode("c", "c-0", 1L, new StartCommit(COMMIT_ID));

    assertThat(HEX.formatHex(bytes))
        .isEqualTo("f10e0101" + HEADER_REST + "00112233445566778899aabbccddeeff");
  }

  @Test
  void commitCompleteEncodesTheWatermarkAsANullableLong() {
    byte[] withWatermark = codec.encode("c", "c-0", 1L, new CommitComplete(COMMIT_ID, 1000L));
    byte[] withoutWatermark = codec.encode("c", "c-0", 1L, new CommitComplete(COMMIT_ID, null));

    // union branch 1 (02), then 1000 as a zig-zag varint (d0 0f); branch 0 (00) is null
    assertThat(HEX.formatHex(withWatermark))
        .isEqualTo("f10e0104" + HEADER_REST + "00112233445566778899aabbccddeeff02d00f");
    assertThat(HEX.formatHex(withoutWatermark))
        .isEqualTo("f10e0104" + HEADER_REST + "00112233445566778899aabbccddeeff00");
  }

  @Test
  void dataCompleteIsABlockOfPartitionsEndedByZero() {
    byte[] bytes =
        codec.encode(
            "c",
            "c-0",
            1L,
            new DataComplete(COMMIT_ID, java.util.List.of(new PartitionOffset("t", 2, 10L, null))));

    // one item (02): "t" (02 74), partition 2 (04), offset branch 1 with 10 (02 14), no timestamp
    // (00); then the end of the array (00)
    assertThat(HEX.formatHex(bytes))
        .isEqualTo(
            "f10e0103"
                + HEADER_REST
                + "00112233445566778899aabbccddeeff"
                + "020274040214"
                + "00"
                + "00");
  }

  @Test
  void dataWrittenVersion3EndsWithTheHandOverIdAsANullableUuid() {
    UUID handOverId = UUID.fromString("ffeeddcc-bbaa-9988-7766-554433221100");
    DataWritten event =
        new DataWritten(COMMIT_ID, "t", null, "m", 1L, 0, ManifestContent.DATA, 1, 0L, 0L, null)
            .withHandOverId(handOverId);

    byte[] bytes = codec.encode("c", "c-0", 1L, event);

    // schema version 3, minimum reader version 1; "t" (02 74), no table uuid (00), "m" (02 6d),
    // length 1 (02), spec 0 (00), content data (00), 1 file (02), 0 records (00), 0 bytes (00),
    // no partitions (00), no change sources (00); then the hand-over id: branch 1 (02), raw bytes
    assertThat(HEX.formatHex(bytes))
        .isEqualTo(
            "f10e0102"
                + "0301"
                + HEADER_REST.substring(4)
                + "00112233445566778899aabbccddeeff"
                + "0274"
                + "00"
                + "026d"
                + "02000002000000"
                + "00"
                + "02ffeeddccbbaa99887766554433221100");
    assertThat(codec.decode(bytes).event()).isEqualTo(event);
  }

  @Test
  void handWrittenBytesDecode() {
    byte[] bytes = HEX.parseHex("f10e0105" + HEADER_REST + "8008");

    Envelope envelope = codec.decode(bytes);

    assertThat(envelope.event()).isEqualTo(new CommitRequest(512));
    assertThat(envelope.header().connectorGroupId()).isEqualTo("c");
    assertThat(envelope.header().senderTaskId()).isEqualTo("c-0");
    assertThat(envelope.header().createdAtMs()).isEqualTo(1L);
  }
}
