/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.write;

import java.util.function.BiFunction;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.io.PositionOutputStream;

/**
 * A table's {@code FileIO} whose output streams pass through {@code wrap} (the stream and the
 * file's location): the seam for an object store that fails uploads.
 */
record StreamWrappingIO(
    FileIO io, BiFunction<PositionOutputStream, String, PositionOutputStream> wrap)
    implements FileIO {
  @Override
  public InputFile newInputFile(String path) {
    return io.newInputFile(path);
  }

  @Override
  public OutputFile newOutputFile(String path) {
    OutputFile file = io.newOutputFile(path);
    return new OutputFile() {
      @Override
      public PositionOutputStream create() {
        return wrap.apply(file.create(), path);
      }

      @Override
      public PositionOutputStream createOrOverwrite() {
        return wrap.apply(file.createOrOverwrite(), path);
      }

      @Override
      public String location() {
        return file.location();
      }

      @Override
      public InputFile toInputFile() {
        return file.toInputFile();
      }
    };
  }

  @Override
  public void deleteFile(String path) {
    io.deleteFile(path);
  }
}
