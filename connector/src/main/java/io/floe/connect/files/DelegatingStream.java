/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.files;

import java.io.IOException;
import org.apache.iceberg.io.PositionOutputStream;

/**
 * A stream that hands every call to the stream it wraps, to be extended where some calls do more.
 *
 * <p>Also a plain wrapper where one is needed as it is: Parquet unwraps Iceberg's Hadoop streams to
 * the Hadoop stream inside and drops the wrapper, whose cleaner then closes the file under it
 * ({@link NewFilesOnly}).
 */
public class DelegatingStream extends PositionOutputStream {
  private final PositionOutputStream out;

  public DelegatingStream(PositionOutputStream out) {
    this.out = out;
  }

  @Override
  public long getPos() throws IOException {
    return out.getPos();
  }

  @Override
  public long storedLength() throws IOException {
    return out.storedLength();
  }

  @Override
  public void write(int b) throws IOException {
    out.write(b);
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    out.write(b, off, len);
  }

  @Override
  public void flush() throws IOException {
    out.flush();
  }

  @Override
  public void close() throws IOException {
    out.close();
  }
}
