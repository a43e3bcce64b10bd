/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.control;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;

/**
 * Encodes control events into Kafka record values and back. Never Java serialization: a compact,
 * versioned binary format that a fixed reader schema decodes.
 *
 * <h2>Wire format</h2>
 *
 * A value is a header followed by the payload. Avro binary encoding is as in the Avro 1.12
 * specification: {@code int} and {@code long} as zig-zag varints, {@code string} and {@code bytes}
 * as a varint length and the (UTF-8) bytes, a union as the varint branch index and the value, an
 * array as blocks of a varint count and items ended by a count of 0, a {@code fixed} as its raw
 * bytes. UUIDs are {@code fixed Uuid(16)}: most significant 64 bits first, big-endian.
 *
 * <pre>
 * offset  size  field
 * 0       1     magic 0xF1
 * 1       1     magic 0x0E
 * 2       1     header version: 1 (0 is invalid)
 * 3       1     event type code ({@link EventType#code()}): 1 StartCommit, 2 DataWritten,
 *               3 DataComplete, 4 CommitComplete, 5 CommitRequest
 * 4       1     payload schema version written, 1 to 255
 * 5       1     minimum reader version, 1 to the schema version (see below)
 * 6       n     header body as Avro bytes: varint length L (0 to 16384), then L bytes holding,
 *               Avro-encoded, string connectorGroupId, string senderTaskId, long createdAtMs;
 *               at header version 1 nothing else
 * 6+n     ...   payload to the end of the value: the event's Avro record at the schema version
 *               written, as each event type documents (StartCommit, DataWritten, ...); the Avro
 *               schemas themselves, in JSON, are in BuiltInSchemas
 * </pre>
 *
 * The header body only ever grows by appending fields, each announced by a higher header version; a
 * reader decodes the fields it knows and skips the rest of the L bytes. Thus any Floe can read the
 * connector group of any Floe event, and skip events of other connectors.
 *
 * <h2>Versions</h2>
 *
 * Each event type's payload schema has versions 1, 2, ...; a codec writes the newest it has and
 * reads into it. A value written at version W is read by a codec whose newest version is R:
 *
 * <ul>
 *   <li>W &le; R: Avro schema resolution of writer schema W to reader schema R; fields added since
 *       W take their defaults. No bytes may follow the payload.
 *   <li>W &gt; R and the minimum reader version &le; R: version W only appended fields to version
 *       R, so the payload starts with a version-R payload; the reader decodes that and ignores the
 *       appended fields' bytes.
 *   <li>otherwise: {@link UnsupportedEventException} ({@link
 *       UnsupportedEventException.Reason#VERSION_TOO_NEW}).
 * </ul>
 *
 * So a new version that only appends fields with defaults to the end of the payload record keeps
 * the minimum reader version, and older and newer Floe versions read each other's events; any other
 * change (a new field in a nested record, a removed or reordered field, an appended field marked
 * {@code "floe.mustUnderstand": true} because ignoring it would be wrong) makes the new version its
 * own minimum, and older readers reject those events instead of misreading them. The minimum is
 * derived from the schemas, not declared.
 *
 * <h2>Errors</h2>
 *
 * {@link UnsupportedEventException} for a value that is not a Floe event, an unknown event type or
 * a version too new; {@link CorruptEventException} for anything malformed. Every length and count
 * is checked against the bytes present before anything is allocated for it: the header's by this
 * codec, the payload's by Avro's binary decoder.
 *
 * <p>A codec is immutable and safe for concurrent use.
 */
public final class EventCodec {

  private final EventSchemas schemas;

  /** A codec with the payload schemas of this Floe. */
  public EventCodec() {
    this(EventSchemas.builtIn());
  }

  EventCodec(EventSchemas schemas) {
    this.schemas = schemas;
  }

  /**
   * The value for {@code event} from task {@code senderTaskId} of connector {@code
   * connectorGroupId}, created at {@code createdAtMs}.
   */
  public byte[] encode(
      String connectorGroupId, String senderTaskId, long createdAtMs, ControlEvent event) {
    Require.present(event, "event");
    EventType type = event.type();
    int version = schemas.latestVersion(type);
    EventHeader header =
        new EventHeader(
            type.code(),
            version,
            schemas.minReaderVersion(type, version),
            connectorGroupId,
            senderTaskId,
            createdAtMs);
    Schema schema = schemas.schema(type, version);
    ByteArrayOutputStream out = new ByteArrayOutputStream(256);
    HeaderFormat.write(header, out);
    try {
      BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
      new GenericDatumWriter<GenericRecord>(schema)
          .write(PayloadMapper.toRecord(event, schema), encoder);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write to a byte array", e);
    }
    return out.toByteArray();
  }

  /**
   * The header of {@code message}, without decoding the payload: enough to skip events of other
   * connectors and of types the caller does not handle.
   *
   * @throws UnsupportedEventException when {@code message} is not a Floe event
   * @throws CorruptEventException when the header is malformed
   */
  public static EventHeader peekHeader(byte[] message) {
    return HeaderFormat.read(Require.present(message, "message")).header();
  }

  /**
   * The event in {@code message}, with its header.
   *
   * @throws UnsupportedEventException when {@code message} is not a Floe event, or its type or
   *     version is unknown to this Floe
   * @throws CorruptEventException when {@code message} is malformed or holds an invalid event
   */
  public Envelope decode(byte[] message) {
    HeaderFormat.Parsed parsed = HeaderFormat.read(Require.present(message, "message"));
    EventHeader header = parsed.header();
    EventType type =
        header
            .type()
            .orElseThrow(
                () ->
                    new UnsupportedEventException(
                        UnsupportedEventException.Reason.UNKNOWN_TYPE,
                        "Unknown control event: "
                            + header.describe()
                            + "; this Floe knows type codes 1 to "
                            + EventType.values().length
                            + ". Run the same Floe version on all workers of the connector."));
    int latest = schemas.latestVersion(type);
    boolean prefixOnly = header.schemaVersion() > latest;
    if (prefixOnly && header.minReaderVersion() > latest) {
      throw new UnsupportedEventException(
          UnsupportedEventException.Reason.VERSION_TOO_NEW,
          "Cannot read "
              + header.describe()
              + ": it needs schema version "
              + header.minReaderVersion()
              + " or newer and this Floe reads up to version "
              + latest
              + ". Run the same Floe version on all workers of the connector.");
    }
    Schema reader = schemas.schema(type, latest);
    Schema writer = prefixOnly ? reader : schemas.schema(type, header.schemaVersion());
    return new Envelope(header, readPayload(message, parsed, type, writer, reader, prefixOnly));
  }

  private static ControlEvent readPayload(
      byte[] message,
      HeaderFormat.Parsed parsed,
      EventType type,
      Schema writer,
      Schema reader,
      boolean prefixOnly) {
    int offset = parsed.payloadOffset();
    BinaryDecoder decoder =
        DecoderFactory.get().binaryDecoder(message, offset, message.length - offset, null);
    GenericRecord record;
    boolean trailingBytes;
    try {
      record = new GenericDatumReader<GenericRecord>(writer, reader).read(null, decoder);
      trailingBytes = !decoder.isEnd();
    } catch (IOException | RuntimeException e) {
      throw corrupt(parsed.header(), e.toString(), e);
    }
    if (trailingBytes && !prefixOnly) {
      throw corrupt(parsed.header(), "unexpected bytes after the payload", null);
    }
    try {
      return PayloadMapper.fromRecord(type, record);
    } catch (RuntimeException e) {
      throw corrupt(parsed.header(), "invalid event: " + e.getMessage(), e);
    }
  }

  private static CorruptEventException corrupt(EventHeader header, String reason, Throwable cause) {
    return new CorruptEventException("Corrupt " + header.describe() + ": " + reason, cause);
  }
}
