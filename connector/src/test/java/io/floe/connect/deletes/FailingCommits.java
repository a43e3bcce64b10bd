/*
 * Copyright The Floe Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.floe.connect.deletes;

import java.util.function.Supplier;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.encryption.EncryptionManager;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.LocationProvider;

/**
 * A table's operations whose every commit fails with the given exception, and is counted: before
 * the commit is applied, or, as when a catalog's answer is lost, after it.
 */
public final class FailingCommits implements TableOperations {
  private final TableOperations ops;
  private final Supplier<RuntimeException> failure;
  private final boolean lands;
  private int commits;
  private RuntimeException lastFailure;

  /** Commits that fail and are not applied. */
  public FailingCommits(TableOperations ops, Supplier<RuntimeException> failure) {
    this(ops, failure, false);
  }

  private FailingCommits(TableOperations ops, Supplier<RuntimeException> failure, boolean lands) {
    this.ops = ops;
    this.failure = failure;
    this.lands = lands;
  }

  /** Commits that are applied, then fail: the catalog took them, its answer was lost. */
  static FailingCommits landing(TableOperations ops, Supplier<RuntimeException> failure) {
    return new FailingCommits(ops, failure, true);
  }

  int commits() {
    return commits;
  }

  RuntimeException lastFailure() {
    return lastFailure;
  }

  @Override
  public void commit(TableMetadata base, TableMetadata metadata) {
    commits++;
    if (lands) {
      ops.commit(base, metadata);
    }
    lastFailure = failure.get();
    throw lastFailure;
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
  public FileIO io() {
    return ops.io();
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
}
