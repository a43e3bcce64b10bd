/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.control;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;

/** Writes and reads the header that starts every control event; {@link EventCodec} specifies it. */
final class HeaderFormat {

  static final int MAGIC_0 = 0xF1;
  static final int MAGIC_1 = 0x0E;
  static final int HEADER_VERSION = 1;
  static final int FIXED_BYTES = 6;
  static final int MAX_BODY_BYTES = 16 * 1024;

  /** A header read from a message, and where the payload starts. */
  record Parsed(EventHeader header, int payloadOffset) {}

  private HeaderFormat() {}

  /** Writes {@code header} to {@code out}, which then holds exactly the header's bytes. */
  static void write(EventHeader header, ByteArrayOutputStream out) {
    out.write(MAGIC_0);
    out.write(MAGIC_1);
    out.write(HEADER_VERSION);
    out.write(header.typeCode());
    out.write(header.schemaVersion());
    out.write(header.minReaderVersion());
    try {
      ByteArrayOutputStream body = new ByteArrayOutputStream(64);
      BinaryEncoder bodyEncoder = EncoderFactory.get().directBinaryEncoder(body, null);
      bodyEncoder.writeString(header.connectorGroupId());
      bodyEncoder.writeString(header.senderTaskId());
      bodyEncoder.writeLong(header.createdAtMs());
      if (body.size() > MAX_BODY_BYTES) {
        throw new IllegalArgumentException(
            "the header of " + header.describe() + " exceeds " + MAX_BODY_BYTES + " bytes");
      }
      BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
      encoder.writeBytes(body.toByteArray());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write to a byte array", e);
    }
  }

  static Parsed read(byte[] message) {
    if (message.length < 2
        || Byte.toUnsignedInt(message[0]) != MAGIC_0
        || Byte.toUnsignedInt(message[1]) != MAGIC_1) {
      throw new UnsupportedEventException(
          UnsupportedEventException.Reason.FOREIGN_FORMAT,
          "Not a Floe control event: it does not start with the magic bytes f10e");
    }
    if (message.length < FIXED_BYTES + 1) {
      throw new CorruptEventException(
          "Truncated Floe control event: " + message.length + " bytes end inside the header");
    }
    int headerVersion = Byte.toUnsignedInt(message[2]);
    if (headerVersion == 0) {
      throw new CorruptEventException("Corrupt Floe control event: header version 0");
    }
    try {
      ByteArrayInputStream in =
          new ByteArrayInputStream(message, FIXED_BYTES, message.length - FIXED_BYTES);
      int bodyLength = DecoderFactory.get().directBinaryDecoder(in, null).readInt();
      int bodyOffset = message.length - in.available();
      if (bodyLength < 0 || bodyLength > MAX_BODY_BYTES || bodyLength > in.available()) {
        throw new CorruptEventException(
            "Corrupt Floe control event: header length "
                + bodyLength
                + " with "
                + in.available()
                + " bytes left (at most "
                + MAX_BODY_BYTES
                + ")");
      }
      BinaryDecoder body =
          DecoderFactory.get().binaryDecoder(message, bodyOffset, bodyLength, null);
      EventHeader header =
          new EventHeader(
              Byte.toUnsignedInt(message[3]),
              Byte.toUnsignedInt(message[4]),
              Byte.toUnsignedInt(message[5]),
              body.readString(),
              body.readString(),
              body.readLong());
      if (headerVersion == HEADER_VERSION && !body.isEnd()) {
        throw new CorruptEventException(
            "Corrupt Floe control event: unexpected bytes at the end of the header of "
                + header.describe());
      }
      return new Parsed(header, bodyOffset + bodyLength);
    } catch (ControlEventException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      throw new CorruptEventException("Corrupt Floe control event header: " + e.getMessage(), e);
    }
  }
}
