/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.write;

import io.floe.connect.files.DelegatingStream;
import java.io.IOException;
import java.util.function.Consumer;
import org.apache.iceberg.encryption.EncryptedOutputFile;
import org.apache.iceberg.encryption.EncryptionKeyMetadata;
import org.apache.iceberg.encryption.NativeEncryptionOutputFile;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.io.PositionOutputStream;

/**
 * A data file whose stream keeps the last {@value #TAIL_BYTES} bytes written, and hands them over
 * once the file is closed whole: a Parquet file ends with its footer, which {@link Dictionaries}
 * reads without reading the file back from the object store.
 *
 * <p>Everything else goes to the file as it is: creation (never an overwrite where the file was
 * created), positions, the stored length. A file Iceberg encrypts natively is not wrapped.
 */
final class TailKeepingFile implements EncryptedOutputFile {
  /** The bytes kept: a Parquet footer of some hundred columns and a few row groups. */
  static final int TAIL_BYTES = 64 * 1024;

  private final EncryptedOutputFile file;
  private final Consumer<byte[]> closed;

  private TailKeepingFile(EncryptedOutputFile file, Consumer<byte[]> closed) {
    this.file = file;
    this.closed = closed;
  }

  /**
   * The file, its tail handed to {@code closed} once its stream closed without an error; a natively
   * encrypted file as it is.
   */
  static EncryptedOutputFile wrap(EncryptedOutputFile file, Consumer<byte[]> closed) {
    if (file instanceof NativeEncryptionOutputFile) {
      return file;
    }
    return new TailKeepingFile(file, closed);
  }

  @Override
  public OutputFile encryptingOutputFile() {
    OutputFile output = file.encryptingOutputFile();
    return new OutputFile() {
      @Override
      public PositionOutputStream create() {
        return new TailStream(output.create(), closed);
      }

      @Override
      public PositionOutputStream createOrOverwrite() {
        return new TailStream(output.createOrOverwrite(), closed);
      }

      @Override
      public String location() {
        return output.location();
      }

      @Override
      public InputFile toInputFile() {
        return output.toInputFile();
      }
    };
  }

  @Override
  public EncryptionKeyMetadata keyMetadata() {
    return file.keyMetadata();
  }

  /** A stream that keeps its last bytes in a ring. */
  static final class TailStream extends DelegatingStream {
    private final Consumer<byte[]> closed;
    private final byte[] ring = new byte[TAIL_BYTES];
    private long written;
    private boolean done;

    TailStream(PositionOutputStream out, Consumer<byte[]> closed) {
      super(out);
      this.closed = closed;
    }

    @Override
    public void write(int b) throws IOException {
      super.write(b);
      ring[(int) (written % TAIL_BYTES)] = (byte) b;
      written++;
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
      super.write(bytes, offset, length);
      keep(bytes, offset, length);
    }

    private void keep(byte[] bytes, int offset, int length) {
      int skipped = Math.max(0, length - TAIL_BYTES);
      int from = offset + skipped;
      int remaining = length - skipped;
      written += skipped;
      while (remaining > 0) {
        int at = (int) (written % TAIL_BYTES);
        int chunk = Math.min(remaining, TAIL_BYTES - at);
        System.arraycopy(bytes, from, ring, at, chunk);
        from += chunk;
        remaining -= chunk;
        written += chunk;
      }
    }

    /** The last bytes written, oldest first: all of them, or the last {@value #TAIL_BYTES}. */
    byte[] tail() {
      int length = (int) Math.min(written, TAIL_BYTES);
      byte[] tail = new byte[length];
      int start = (int) ((written - length) % TAIL_BYTES);
      int first = Math.min(length, TAIL_BYTES - start);
      System.arraycopy(ring, start, tail, 0, first);
      System.arraycopy(ring, 0, tail, first, length - first);
      return tail;
    }

    @Override
    public void close() throws IOException {
      super.close();
      if (!done) {
        done = true;
        closed.accept(tail());
      }
    }
  }
}
