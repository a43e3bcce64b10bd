/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.it.avro;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;

/**
 * Avro in the Confluent wire format, as producers in tests write it: magic byte 0, the schema's
 * registry id as a 4-byte big-endian integer, then the Avro binary encoding of the value.
 */
public final class WireFormat {
  private static final byte MAGIC = 0;

  private WireFormat() {}

  public static byte[] encode(int schemaId, GenericRecord record) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(64);
    out.write(MAGIC);
    out.writeBytes(ByteBuffer.allocate(4).putInt(schemaId).array());
    BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
    try {
      new GenericDatumWriter<GenericRecord>(record.getSchema()).write(record, encoder);
      encoder.flush();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot encode " + record, e);
    }
    return out.toByteArray();
  }
}
