/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.commit;

import io.floe.connect.commit.SimFaults.Point;
import io.floe.connect.files.DelegatingStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.iceberg.inmemory.InMemoryFileIO;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.io.PositionOutputStream;
import org.apache.iceberg.io.SupportsPrefixOperations;

/**
 * The object store: Iceberg's {@link InMemoryFileIO}, with faults (a file that cannot be created or
 * uploaded, a call that hangs, a process that dies before or after its file landed) and a record of
 * every file that landed: who wrote it, and whether it replaced a file that was there.
 */
final class SimFileIO implements FileIO, SupportsPrefixOperations {
  /**
   * A file that landed.
   *
   * @param writer the task instance that wrote it, with its role
   * @param worker whether a worker (not a coordinator) wrote it
   * @param writerReplaced whether a newer instance of the writer's task had started by then
   * @param overwrote whether it replaced a file that existed
   * @param step the schedule's step
   */
  record Write(
      String writer, boolean worker, boolean writerReplaced, boolean overwrote, int step) {}

  private final InMemoryFileIO files = new InMemoryFileIO();
  private final Sim sim;
  private final SimFaults faults;
  private final Map<String, List<Write>> writes = new HashMap<>();
  private final Map<String, Long> landedAt = new HashMap<>();

  SimFileIO(Sim sim, SimFaults faults) {
    this.sim = sim;
    this.faults = faults;
  }

  /** Every file that landed, by location, with each time it was written. */
  Map<String, List<Write>> writes() {
    return writes;
  }

  @Override
  public InputFile newInputFile(String path) {
    return files.newInputFile(path);
  }

  @Override
  public OutputFile newOutputFile(String path) {
    return new SimOutputFile(files.newOutputFile(path));
  }

  @Override
  public void deleteFile(String path) {
    if (sim.actor() != null && sim.actor().crashed) {
      throw new SimCrash(sim.actor() + " is dead");
    }
    files.deleteFile(path);
  }

  /** The files that exist under {@code prefix}, with the simulated time they landed. */
  @Override
  public Iterable<FileInfo> listPrefix(String prefix) {
    if (sim.actor() != null && sim.actor().crashed) {
      throw new SimCrash(sim.actor() + " is dead");
    }
    List<FileInfo> found = new ArrayList<>();
    for (Map.Entry<String, Long> file : new TreeMap<>(landedAt).entrySet()) {
      if (file.getKey().startsWith(prefix) && files.fileExists(file.getKey())) {
        found.add(new FileInfo(file.getKey(), 0, file.getValue()));
      }
    }
    return found;
  }

  @Override
  public void deletePrefix(String prefix) {
    throw new UnsupportedOperationException("Floe never deletes a prefix");
  }

  /** Deletes every file of the schedule, and the given others (table metadata). */
  void deleteAll(List<String> others) {
    List<String> all = new ArrayList<>(writes.keySet());
    all.addAll(others);
    for (String path : all) {
      if (files.fileExists(path)) {
        files.deleteFile(path);
      }
    }
  }

  private void landed(String location, boolean overwrote) {
    SimActor actor = sim.actor();
    Write write =
        actor == null
            ? new Write("harness", false, false, overwrote, sim.stepNumber())
            : new Write(
                actor + (sim.coordinatorActing() ? " coordinator" : " worker"),
                !sim.coordinatorActing(),
                actor.replaced,
                overwrote,
                sim.stepNumber());
    writes.computeIfAbsent(location, l -> new ArrayList<>()).add(write);
    landedAt.put(location, sim.clock.millis());
    if (overwrote) {
      sim.trace("OVERWRITE " + location + " by " + write.writer());
    }
  }

  /** An output file whose creation and upload may fail, and whose landing is recorded. */
  private final class SimOutputFile implements OutputFile {
    private final OutputFile file;

    SimOutputFile(OutputFile file) {
      this.file = file;
    }

    @Override
    public PositionOutputStream create() {
      faults.before(Point.FILE_CREATE);
      return new SimStream(file.create(), location());
    }

    @Override
    public PositionOutputStream createOrOverwrite() {
      faults.before(Point.FILE_CREATE);
      return new SimStream(file.createOrOverwrite(), location());
    }

    @Override
    public String location() {
      return file.location();
    }

    @Override
    public InputFile toInputFile() {
      return file.toInputFile();
    }
  }

  /** A stream whose bytes land on close, unless the upload fails first. */
  private final class SimStream extends DelegatingStream {
    private final String location;
    private boolean closed;

    SimStream(PositionOutputStream out, String location) {
      super(out);
      this.location = location;
    }

    @Override
    public void close() throws IOException {
      if (closed) {
        return;
      }
      closed = true;
      faults.before(Point.FILE_CLOSE);
      boolean existed = files.fileExists(location);
      super.close();
      landed(location, existed);
      faults.after(Point.FILE_CLOSED);
    }
  }
}
