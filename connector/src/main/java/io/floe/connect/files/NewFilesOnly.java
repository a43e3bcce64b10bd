/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.files;

import java.util.Map;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.io.PositionOutputStream;

/**
 * A table's {@link FileIO} for the files Floe writes (data files, manifests, delete files): a file
 * can only be created, never replaced. Iceberg's writers ask for {@code createOrOverwrite}; here
 * that becomes {@code create}, which fails with {@code AlreadyExistsException} when the location is
 * taken. Every name Floe builds is unique to the writer instance that writes it, so this never
 * fails in a healthy run; it turns a naming mistake into a failed write instead of a committed file
 * silently replaced by another writer's.
 */
public final class NewFilesOnly implements FileIO {
  private final FileIO io;

  private NewFilesOnly(FileIO io) {
    this.io = io;
  }

  /** Wraps {@code io}, unless it is wrapped already. */
  public static FileIO of(FileIO io) {
    return io instanceof NewFilesOnly ? io : new NewFilesOnly(io);
  }

  @Override
  public InputFile newInputFile(String path) {
    return io.newInputFile(path);
  }

  @Override
  public InputFile newInputFile(String path, long length) {
    return io.newInputFile(path, length);
  }

  @Override
  public OutputFile newOutputFile(String path) {
    OutputFile file = io.newOutputFile(path);
    return new CreateOnly(file, file.location());
  }

  @Override
  public void deleteFile(String path) {
    io.deleteFile(path);
  }

  @Override
  public Map<String, String> properties() {
    return io.properties();
  }

  /** The wrapped IO belongs to the table: closing this view leaves it open. */
  @Override
  public void close() {}

  /**
   * An output file whose every way of opening it refuses an existing file. Its location is read
   * once: some file IOs build it anew at each call, and writers ask for it at every row.
   */
  private record CreateOnly(OutputFile file, String location) implements OutputFile {
    @Override
    public PositionOutputStream create() {
      return new DelegatingStream(file.create());
    }

    @Override
    public PositionOutputStream createOrOverwrite() {
      return create();
    }

    @Override
    public String location() {
      return location;
    }

    @Override
    public InputFile toInputFile() {
      return file.toInputFile();
    }
  }
}
