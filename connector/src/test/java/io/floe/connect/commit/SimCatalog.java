/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.commit;

import io.floe.connect.commit.SimFaults.Point;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.encryption.EncryptionManager;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.LocationProvider;

/**
 * The catalog: Iceberg's {@link InMemoryCatalog}, its tables' files on a {@link SimFileIO}, with
 * faults at table loads and commits: a concurrent commit (Iceberg refreshes and retries), an outage
 * before the commit, an ambiguous commit (it landed, the call throws {@code
 * CommitStateUnknownException}), a commit that landed but whose answer was lost (the call throws a
 * plain {@code RESTException}, as a REST catalog's client does), a call that hangs, a process that
 * dies before or after its commit landed.
 */
final class SimCatalog extends InMemoryCatalog {
  private final SimFileIO io;
  private final SimFaults faults;

  SimCatalog(String warehouse, SimFileIO io, SimFaults faults) {
    this.io = io;
    this.faults = faults;
    initialize("sim", Map.of("warehouse", warehouse));
  }

  @Override
  public org.apache.iceberg.Table loadTable(TableIdentifier identifier) {
    faults.before(Point.CATALOG_LOAD);
    return super.loadTable(identifier);
  }

  @Override
  protected TableOperations newTableOps(TableIdentifier identifier) {
    return new FaultyOperations(super.newTableOps(identifier));
  }

  /** Every metadata file the tables' histories list, to delete them with the schedule. */
  List<String> metadataFiles(List<TableIdentifier> tables) {
    List<String> files = new ArrayList<>();
    for (TableIdentifier table : tables) {
      TableMetadata current = super.newTableOps(table).current();
      if (current != null) {
        files.add(current.metadataFileLocation());
        current.previousFiles().forEach(entry -> files.add(entry.file()));
      }
    }
    return files;
  }

  /** A table's operations with the catalog's faults, reading and writing files on the store. */
  private final class FaultyOperations implements TableOperations {
    private final TableOperations ops;

    FaultyOperations(TableOperations ops) {
      this.ops = ops;
    }

    @Override
    public TableMetadata current() {
      return ops.current();
    }

    @Override
    public TableMetadata refresh() {
      return ops.refresh();
    }

    @Override
    public void commit(TableMetadata base, TableMetadata metadata) {
      faults.before(Point.CATALOG_COMMIT);
      ops.commit(base, metadata);
      faults.after(Point.CATALOG_COMMITTED);
    }

    @Override
    public FileIO io() {
      return io;
    }

    @Override
    public EncryptionManager encryption() {
      return ops.encryption();
    }

    @Override
    public String metadataFileLocation(String fileName) {
      return ops.metadataFileLocation(fileName);
    }

    @Override
    public LocationProvider locationProvider() {
      return ops.locationProvider();
    }

    @Override
    public long newSnapshotId() {
      return ops.newSnapshotId();
    }

    /**
     * Strict, as a REST catalog's operations are: after a failure that is not a {@code
     * CleanableFailure}, such as a lost answer, Iceberg then keeps the files of a commit that may
     * have landed instead of deleting them under a snapshot that references them. The in-memory
     * catalog's operations are strict too (Iceberg's default), but this catalog stands for a REST
     * one and says so itself.
     */
    @Override
    public boolean requireStrictCleanup() {
      return true;
    }
  }
}
